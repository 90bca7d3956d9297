/* SPDX-License-Identifier: BSD-3-Clause */
/* mpi_pingpong.c: this machine's MPI costs for bench/mpi_model.py.  Ranks 0
 * and 1 bounce a message of m bytes (half a round trip: the osu_latency
 * method, Ohio State's micro-benchmarks), then all ranks time MPI_Allreduce
 * (MPI_SUM of doubles) of m bytes.  Each figure is the median of 7 batches,
 * a batch the mean of enough repetitions to last about 2 ms.
 *   mpiexec -n P mpi_pingpong
 * prints, on rank 0, lines "pingpong bytes=M us=T" (P = 2 only: the other
 * ranks would sit idle) and
 * "allreduce ranks=P bytes=M us=T". */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { BATCHES = 7, MAXBYTES = 1 << 20 };

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Seconds of one ping-pong half round trip (rank 0's clock; rank 1 echoes). */
static double pingpong(char *buf, int bytes, int reps, int rank)
{
    double t0 = MPI_Wtime();
    for (int r = 0; r < reps; r++) {
        if (rank == 0) {
            MPI_Send(buf, bytes, MPI_CHAR, 1, 1, MPI_COMM_WORLD);
            MPI_Recv(buf, bytes, MPI_CHAR, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else if (rank == 1) {
            MPI_Recv(buf, bytes, MPI_CHAR, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(buf, bytes, MPI_CHAR, 0, 1, MPI_COMM_WORLD);
        }
    }
    return (MPI_Wtime() - t0) / reps / 2;
}

static double allreduce(double *v, int bytes, int reps)
{
    int n = bytes / (int)sizeof(double);
    double t0 = MPI_Wtime();
    for (int r = 0; r < reps; r++)
        MPI_Allreduce(MPI_IN_PLACE, v, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    return (MPI_Wtime() - t0) / reps;
}

/* The median over BATCHES of what (0 ping-pong, 1 allreduce), in seconds; the
 * repetitions per batch from a first timing, agreed by all ranks. */
static double median(int what, void *buf, int bytes, int rank)
{
    double once = what ? allreduce(buf, bytes, 10) : pingpong(buf, bytes, 10, rank), t[BATCHES];
    MPI_Bcast(&once, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    int reps = once > 0 ? (int)(2e-3 / once) + 1 : 1000;
    for (int b = 0; b < BATCHES; b++) {
        t[b] = what ? allreduce(buf, bytes, reps) : pingpong(buf, bytes, reps, rank);
        MPI_Barrier(MPI_COMM_WORLD);
    }
    qsort(t, BATCHES, sizeof t[0], cmp_double);
    return t[BATCHES / 2];
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    char *buf = calloc(MAXBYTES, 1);
    if (!buf)
        MPI_Abort(MPI_COMM_WORLD, 1);
    static const int pp[] = {8, 64, 512, 4096, 32768, 262144, 1048576};
    /* 1, 7 and 131 sums (560 bytes each: reproducible=1's limbs), and plain doubles */
    static const int ar[] = {8, 16, 48, 560, 3920, 73360, 262144};
    for (size_t k = 0; size == 2 && k < sizeof pp / sizeof pp[0]; k++) {
        double t = median(0, buf, pp[k], rank);
        if (rank == 0)
            printf("pingpong bytes=%d us=%.3f\n", pp[k], 1e6 * t);
    }
    for (size_t k = 0; k < sizeof ar / sizeof ar[0]; k++) {
        memset(buf, 0, MAXBYTES);
        double t = median(1, buf, ar[k], rank);
        if (rank == 0)
            printf("allreduce ranks=%d bytes=%d us=%.3f\n", size, ar[k], 1e6 * t);
    }
    free(buf);
    MPI_Finalize();
    return 0;
}
