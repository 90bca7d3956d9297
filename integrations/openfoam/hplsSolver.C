// SPDX-License-Identifier: BSD-3-Clause
// hplsSolver.C: the lduMatrix::solver "hpls" (hplsSolver.H).  OpenFOAM's LDU
// matrix (lduMatrix.H: diag, upper[f] at row lowerAddr[f], column
// upperAddr[f], lower[f] at the transposed place) becomes a CSR matrix once per
// mesh; at every solve only its values are written (through a map kept with the
// pattern) and hpls_solver_update_values redoes the numeric setup of the
// solver of the dictionary's options on that mesh, one for all the fields that
// ask for the same options.  psi and source are handed to hpls in place.  The stop test is OpenFOAM's own, given
// to hpls as its convergence test (hpls_solver_set_convergence_test): the
// residual |r|_1 / normFactor, normFactor = sum(|A psi - sumA xRef| + |source
// - sumA xRef|) + 1e-20 of the initial psi, xRef its mean, sumA A's row sums
// (lduMatrixSolver.C), below tolerance or relTol times its initial value
// (SolverPerformance.C), tested where PCG.C and PBiCGStab.C test it; the
// initial residual and OpenFOAM's own normFactor are taken in the test at
// iteration 0 from hpls's b - A psi (A psi = b - r there), so A psi is
// computed once a solve, not by Amul first and by hpls again.
// In a parallel run (Pstream::parRun()) the matrix is hpls's distributed one
// (hpls_dcsr) on MPI_COMM_WORLD, OpenFOAM's world communicator
// (UPstream.C: allocatePstreamCommunicator): this rank's cells are the rows
// globalIndex numbers (rank blocks in rank order), a processor interface's
// face couples its cell with the neighbour's cell across it, whose global id
// comes once per mesh from the neighbour, at coefficient -interfaceBouCoeffs
// (processorFvPatchField::updateInterfaceMatrix: Amul's result -= coeffs *
// psi across); the stop test's sums are over all ranks (gSum), as in
// OpenFOAM's parallel PCG.  Other coupled interfaces (cyclic, processorCyclic,
// AMI ...) are refused by name.
#include "hplsSolver.H"
#include "addToRunTimeSelectionTable.H"
#include "processorLduInterface.H"
#include "processorLduInterfaceField.H"
#include "globalIndex.H"
#include "polyMesh.H"

#ifdef HPLS_FOAM_MPI
#include "hpls_mpi.h" // hpls.h and mpi.h
#else
#include "hpls.h"
#endif

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace Foam
{
    defineTypeNameAndDebug(hplsSolver, 0);

    lduMatrix::solver::addsymMatrixConstructorToTable<hplsSolver>
        addhplsSolverSymMatrixConstructorToTable_;

    lduMatrix::solver::addasymMatrixConstructorToTable<hplsSolver>
        addhplsSolverAsymMatrixConstructorToTable_;
}

namespace Foam
{
namespace
{

// Seconds since t (the debug switch's report of what is done once)
double since(const std::chrono::steady_clock::time_point t)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

// The processor interfaces of a parallel solve: their places in the
// interface list, the cells beside their faces on this rank and (once per
// mesh, from the neighbour) the global ids of the cells across
struct hplsFoamCoupling
{
    std::vector<label> patch;     // index in the interface list
    std::vector<label> cells;     // faceCells of the interfaces, one after the other
    std::vector<hpls_int> across; // the global cell across each of those faces
    hpls_int first = 0, n = 0;    // my first global row, the global order
};

// One mesh's matrix, shared by every field solved on it: the CSR pattern of
// its addressing (the same for p, U, k, ...: built once per mesh, not once a
// field), where each coefficient goes, and the values of the field solved last
struct hplsFoamPattern
{
    std::vector<label> lowerAddr, upperAddr; // the addressing it was built for
    std::vector<label> coupledCells;         // and the processor faces' cells
    hpls_csr* A = nullptr;                   // serial: the matrix
    std::vector<hpls_int> rowptr, gcol;      // parallel: the pattern of D, global columns
    std::vector<hpls_real> val;              // and its values
#ifdef HPLS_FOAM_MPI
    hpls_dcsr* D = nullptr;                  // parallel: the matrix, made at the first solve
#endif
    std::vector<hpls_int> diagSlot;  // value index of diag[i]
    std::vector<hpls_int> upperSlot; // of upper[f]: row lowerAddr[f], column upperAddr[f]
    std::vector<hpls_int> lowerSlot; // of lower[f]: row upperAddr[f], column lowerAddr[f]
    std::vector<hpls_int> coupledSlot; // of processor face k (coupledCells[k], across[k])
    bool shared = false;             // some slot takes several coefficients (faces between
                                     // the same cells): summed, else written once each
    scalarField wA, tmpField;        // A psi and normFactor's scratch (n each, kept)

    ~hplsFoamPattern()
    {
#ifdef HPLS_FOAM_MPI
        // the caches outlive main, and OpenFOAM's MPI_Finalize: D (collective
        // to free) is left to the process's end then
        int finalized = 0;
        MPI_Finalized(&finalized);
        if (!finalized)
        {
            hpls_dcsr_destroy(D);
        }
#endif
        hpls_csr_destroy(A);
    }
};

// The hpls solver of one set of options on a mesh's matrix, shared by the
// fields that ask for those options (U's components, k and epsilon alike):
// each solve writes its field's values and updates (hpls_solver_update_values
// / _dcsr, the numeric part only), so only the first field sets it up
struct hplsFoamCache
{
    std::shared_ptr<hplsFoamPattern> pattern; // the matrix the solver is set up on
    hpls_solver* solver = nullptr;
    std::string stop;                // the maxiter and miniter last set
    bool setUp = false;              // solver set up on A (else the next solve sets it up)

    ~hplsFoamCache()
    {
#ifdef HPLS_FOAM_MPI
        // a solver on D is collective to free: left to the process's end
        // once OpenFOAM's MPI_Finalize has run
        int finalized = 0;
        MPI_Finalized(&finalized);
        if (pattern && pattern->D && finalized)
        {
            return;
        }
#endif
        hpls_solver_destroy(solver);
    }
};

// Keyed on the addressing object (and the hpls options): OpenFOAM makes a
// solver object per solve, these outlive it (and every mesh, until exit); the
// solvers are declared last so that they go first, before the matrices they
// were set up on
std::map<const void*, std::shared_ptr<hplsFoamPattern>> patterns;
std::map<std::pair<const void*, std::string>, std::unique_ptr<hplsFoamCache>> caches;

bool sameAddressing
(
    const hplsFoamPattern& c,
    const lduAddressing& addr,
    const hplsFoamCoupling& cp
)
{
    const labelUList& l = addr.lowerAddr();
    const labelUList& u = addr.upperAddr();
    return label(c.diagSlot.size()) == addr.size()
        && label(c.lowerAddr.size()) == l.size()
        && std::equal(l.begin(), l.end(), c.lowerAddr.begin())
        && std::equal(u.begin(), u.end(), c.upperAddr.begin())
        && c.coupledCells == cp.cells;
}

// The general way to the pattern and the slots, from the columns written
// row by row in any order: each row sorted and its repeated columns (faces
// between the same cells) made one entry, then every coefficient's slot
// searched in its row
void sortAndSearch
(
    hplsFoamPattern& c,
    const lduAddressing& addr,
    const hplsFoamCoupling& cp
)
{
    const labelUList& l = addr.lowerAddr();
    const labelUList& u = addr.upperAddr();
    const hpls_int n = addr.size(), nf = l.size(), nc = cp.cells.size();
    const hpls_int g = cp.first;
    std::vector<hpls_int>& rowptr = c.rowptr;
    std::vector<hpls_int>& col = c.gcol;
    hpls_int out = 0;
    for (hpls_int i = 0; i < n; i++)
    {
        const hpls_int first = out, end = rowptr[i + 1];
        std::sort(col.begin() + rowptr[i], col.begin() + end);
        for (hpls_int p = rowptr[i]; p < end; p++)
        {
            if (out == first || col[out - 1] != col[p])
            {
                col[out++] = col[p];
            }
        }
        rowptr[i] = first;
    }
    rowptr[n] = out;
    c.shared = out != hpls_int(col.size());
    col.resize(out);
    const auto slotOf = [&](hpls_int row, hpls_int column)
    {
        return hpls_int
        (
            std::lower_bound(col.begin() + rowptr[row], col.begin() + rowptr[row + 1], column)
          - col.begin()
        );
    };
    for (hpls_int i = 0; i < n; i++)
    {
        c.diagSlot[i] = slotOf(i, g + i);
    }
    for (hpls_int f = 0; f < nf; f++)
    {
        c.upperSlot[f] = slotOf(l[f], g + u[f]);
        c.lowerSlot[f] = slotOf(u[f], g + l[f]);
    }
    for (hpls_int k = 0; k < nc; k++)
    {
        c.coupledSlot[k] = slotOf(cp.cells[k], cp.across[k]);
    }
}

// The CSR pattern of the addressing and of the processor faces (global
// columns, cp.first + i for my cell i), columns sorted, two faces between the
// same cells sharing one entry, and where each coefficient goes.  Serial: A
// is made on it; parallel: rowptr and gcol are kept for hpls_dcsr_create.
// A row is written in the order of its columns as OpenFOAM orders faces
// (lduAddressing's upper-triangular order: by owner, then neighbour): the
// processor faces to lower ranks, the faces whose neighbour the row is (their
// owners increasing), the diagonal, the faces it owns (neighbours increasing),
// the processor faces to higher ranks.  Each coefficient's slot is then where
// it was written, with no sort; only if some row comes out unsorted or with a
// repeated column are the rows sorted and compacted and the slots searched.
// With the debug switch at 2 that general way is taken always, and on sorted
// rows it must give what the writing order gave (a FatalError if not).
std::shared_ptr<hplsFoamPattern> buildPattern
(
    const lduAddressing& addr,
    const hplsFoamCoupling& cp,
    const bool parallel
)
{
    std::shared_ptr<hplsFoamPattern> c(new hplsFoamPattern);
    const labelUList& l = addr.lowerAddr();
    const labelUList& u = addr.upperAddr();
    const hpls_int n = addr.size(), nf = l.size(), nc = cp.cells.size();
    const hpls_int g = cp.first;
    c->lowerAddr.assign(l.begin(), l.end());
    c->upperAddr.assign(u.begin(), u.end());
    c->coupledCells = cp.cells;

    std::vector<hpls_int>& rowptr = c->rowptr;
    std::vector<hpls_int>& col = c->gcol;
    rowptr.assign(n + 1, 0);
    for (hpls_int f = 0; f < nf; f++)
    {
        rowptr[l[f] + 1]++;
        rowptr[u[f] + 1]++;
    }
    for (hpls_int k = 0; k < nc; k++)
    {
        rowptr[cp.cells[k] + 1]++;
    }
    for (hpls_int i = 0; i < n; i++)
    {
        rowptr[i + 1] += rowptr[i] + 1; // and the diagonal
    }
    col.resize(rowptr[n]);
    c->diagSlot.resize(n);
    c->upperSlot.resize(nf);
    c->lowerSlot.resize(nf);
    c->coupledSlot.resize(nc);
    std::vector<hpls_int> next(rowptr.begin(), rowptr.end() - 1);
    const auto put = [&](hpls_int row, hpls_int column)
    {
        col[next[row]] = column;
        return next[row]++;
    };
    for (hpls_int k = 0; k < nc; k++)
    {
        if (cp.across[k] < g)
        {
            c->coupledSlot[k] = put(cp.cells[k], cp.across[k]);
        }
    }
    for (hpls_int f = 0; f < nf; f++)
    {
        c->lowerSlot[f] = put(u[f], g + l[f]);
    }
    for (hpls_int i = 0; i < n; i++)
    {
        c->diagSlot[i] = put(i, g + i);
    }
    for (hpls_int f = 0; f < nf; f++)
    {
        c->upperSlot[f] = put(l[f], g + u[f]);
    }
    for (hpls_int k = 0; k < nc; k++)
    {
        if (cp.across[k] >= g)
        {
            c->coupledSlot[k] = put(cp.cells[k], cp.across[k]);
        }
    }

    bool sorted = true;
    for (hpls_int i = 0; i < n && sorted; i++)
    {
        for (hpls_int p = rowptr[i] + 1; p < rowptr[i + 1]; p++)
        {
            sorted = sorted && col[p - 1] < col[p];
        }
    }
    if (!sorted || hplsSolver::debug >= 2)
    {
        std::vector<std::vector<hpls_int>> written;
        if (sorted)
        {
            written = {rowptr, col, c->diagSlot, c->upperSlot, c->lowerSlot, c->coupledSlot};
        }
        sortAndSearch(*c, addr, cp);
        const std::vector<std::vector<hpls_int>> searched =
            {rowptr, col, c->diagSlot, c->upperSlot, c->lowerSlot, c->coupledSlot};
        if (sorted && written != searched)
        {
            FatalErrorInFunction
                << "the CSR pattern written in face order differs from the one sorted"
                << " and searched (" << n << " cells, " << nf << " faces)" << exit(FatalError);
        }
    }
    if (parallel)
    {
        c->val.assign(col.size(), 0.0);
        return c;
    }

    if (hpls_csr_create(n, n, hpls_int(col.size()), &c->A) != HPLS_OK)
    {
        FatalErrorInFunction
            << "hpls_csr_create (" << n << " rows, " << label(col.size())
            << " entries): " << hpls_last_error() << exit(FatalError);
    }
    std::copy(rowptr.begin(), rowptr.end(), c->A->rowptr);
    std::copy(col.begin(), col.end(), c->A->colind);
    std::vector<hpls_int>().swap(rowptr);
    std::vector<hpls_int>().swap(col);
    return c;
}

// The values from the matrix's coefficients and, across processor faces,
// -interfaceBouCoeffs, written through the slots straight into the matrix's
// value array: one pass over the coefficients, each value written once; only
// where faces share an entry (c.shared) are the values zeroed and summed
void fillValues
(
    hplsFoamPattern& c,
    const lduMatrix& m,
    const FieldField<Field, scalar>& bouCoeffs,
    const hplsFoamCoupling& cp
)
{
    hpls_real* val = c.A ? c.A->val : c.val.data();
    const scalarField& d = m.diag();
    const scalarField& up = m.upper();
    const scalarField& lo = m.lower(); // upper() itself when m is symmetric
    const hpls_int* diagSlot = c.diagSlot.data();
    const hpls_int* upperSlot = c.upperSlot.data();
    const hpls_int* lowerSlot = c.lowerSlot.data();
    const hpls_int* coupledSlot = c.coupledSlot.data();
    const label nCells = d.size(), nFaces = up.size();
    if (c.shared)
    {
        std::fill(val, val + (c.A ? c.A->nnz : hpls_int(c.val.size())), 0.0);
        for (label i = 0; i < nCells; i++)
        {
            val[diagSlot[i]] += d[i];
        }
        for (label f = 0; f < nFaces; f++)
        {
            val[upperSlot[f]] += up[f];
            val[lowerSlot[f]] += lo[f];
        }
        std::size_t k = 0;
        for (const label p : cp.patch)
        {
            for (const scalar coeff : bouCoeffs[p])
            {
                val[coupledSlot[k++]] -= coeff;
            }
        }
        return;
    }
    for (label i = 0; i < nCells; i++)
    {
        val[diagSlot[i]] = d[i];
    }
    for (label f = 0; f < nFaces; f++)
    {
        val[upperSlot[f]] = up[f];
        val[lowerSlot[f]] = lo[f];
    }
    std::size_t k = 0;
    for (const label p : cp.patch)
    {
        for (const scalar coeff : bouCoeffs[p])
        {
            val[coupledSlot[k++]] = -coeff;
        }
    }
}

// "key=value" of each entry of the hpls sub-dictionary, in order; a
// sub-dictionary or a value of several tokens is an error naming the key
std::vector<std::string> hplsOptions(const dictionary& dict)
{
    std::vector<std::string> kv;
    for (const entry& e : dict)
    {
        if (e.isDict() || e.stream().size() != 1)
        {
            FatalIOErrorInFunction(dict)
                << "hpls option " << e.keyword()
                << ": expected one word or number (an hpls option key=value)"
                << exit(FatalIOError);
        }
        const token& t = e.stream()[0];
        char value[64];
        if (t.isWord())
        {
            kv.push_back(e.keyword() + "=" + t.wordToken());
            continue;
        }
        if (t.isLabel())
        {
            std::snprintf(value, sizeof value, "%lld", (long long)t.labelToken());
        }
        else if (t.isNumber())
        {
            std::snprintf(value, sizeof value, "%.17g", double(t.number()));
        }
        else
        {
            FatalIOErrorInFunction(dict)
                << "hpls option " << e.keyword() << ": " << t.info()
                << " is not a word or a number" << exit(FatalIOError);
        }
        kv.push_back(e.keyword() + "=" + value);
    }
    return kv;
}

// The cache's hpls solver, with the dictionary's options (a bad one is a
// FatalIOError naming it); its setup comes at the next solve
void newSolver
(
    hplsFoamCache& c,
    const std::vector<std::string>& kv,
    const dictionary& hplsDict,
    const word& fieldName
)
{
    if (hpls_solver_create(&c.solver) != HPLS_OK)
    {
        FatalErrorInFunction
            << "hpls_solver_create: " << hpls_last_error() << exit(FatalError);
    }
    // OpenFOAM's psi is the initial guess; the dictionary may still say otherwise
    hpls_solver_set_option(c.solver, "initial_guess=given");
    // and its test's stop is final, as in PCG.C and PBiCGStab.C: no b - A psi
    // recomputed to confirm it (confirm yes; in the dictionary asks for one)
    hpls_solver_set_option(c.solver, "confirm=no");
    if (Pstream::parRun())
    {
        // OpenFOAM runs a rank per core: no OpenMP threads beside it unless asked
        hpls_solver_set_option(c.solver, "threads=1");
    }
    for (const std::string& o : kv)
    {
        if (hpls_solver_set_option(c.solver, o.c_str()) != HPLS_OK)
        {
            FatalIOErrorInFunction(hplsDict)
                << "field " << fieldName << ": hpls option " << o << ": "
                << hpls_solver_message(c.solver) << exit(FatalIOError);
        }
    }
    c.stop.clear();
}

// The processor interfaces of the solve (cp.patch, cp.cells); any other
// coupled interface is a FatalError naming its patch
hplsFoamCoupling processorInterfaces
(
    const lduInterfaceFieldPtrsList& interfaces,
    const lduMatrix& matrix,
    const word& fieldName
)
{
    hplsFoamCoupling cp;
    forAll(interfaces, i)
    {
        if (!interfaces.set(i))
        {
            continue;
        }
        const lduInterfaceField& f = interfaces[i];
        const processorLduInterfaceField* pf =
            dynamic_cast<const processorLduInterfaceField*>(&f);
        if
        (
            !Pstream::parRun() || !pf || pf->doTransform()
         || f.interfaceFieldType() != "processor"
        )
        {
            // fvMesh is a polyMesh: its boundary names the interface's patch
            const polyMesh* pm = dynamic_cast<const polyMesh*>(&matrix.mesh());
            FatalErrorInFunction
                << "field " << fieldName << ": coupled interface " << i << " ("
                << (pm ? pm->boundaryMesh()[i].name() : word("?")) << ", type "
                << f.interfaceFieldType() << ") is not supported by solver hpls"
                << " (processor interfaces are); use another solver for this field"
                << exit(FatalError);
        }
        cp.patch.push_back(i);
        const labelUList& fc = f.interface().faceCells();
        cp.cells.insert(cp.cells.end(), fc.begin(), fc.end());
    }
    return cp;
}

#ifdef HPLS_FOAM_MPI
// My first global row, the global order (globalIndex: rank blocks in rank
// order) and the global ids of the cells across my processor faces, sent by
// the neighbours (a processor patch's faces are in the same order on both
// sides, as updateInterfaceMatrix's received psi is)
void exchangeAcross
(
    hplsFoamCoupling& cp,
    const lduInterfaceFieldPtrsList& interfaces,
    const label nCells,
    const label comm
)
{
    static_assert(sizeof(label) == sizeof(int), "32-bit labels (WM_LABEL_SIZE=32)");
    const globalIndex cells(nCells, Pstream::msgType(), comm, true);
    cp.first = cells.offset(Pstream::myProcNo(comm));
    cp.n = cells.size();
    const std::size_t np = cp.patch.size();
    const int tag = 3131; // not one of OpenFOAM's (its processor patches use 1)
    std::vector<std::vector<int>> mine(np), theirs(np);
    std::vector<MPI_Request> req(2*np);
    for (std::size_t j = 0; j < np; j++)
    {
        const lduInterface& face = interfaces[cp.patch[j]].interface();
        const int nbr = dynamic_cast<const processorLduInterface&>(face).neighbProcNo();
        for (const label cell : face.faceCells())
        {
            mine[j].push_back(int(cp.first + cell));
        }
        theirs[j].resize(mine[j].size());
        MPI_Irecv(theirs[j].data(), int(theirs[j].size()), MPI_INT, nbr, tag,
                  MPI_COMM_WORLD, &req[np + j]);
        MPI_Isend(mine[j].data(), int(mine[j].size()), MPI_INT, nbr, tag,
                  MPI_COMM_WORLD, &req[j]);
    }
    MPI_Waitall(int(2*np), req.data(), MPI_STATUSES_IGNORE);
    cp.across.clear();
    for (const std::vector<int>& t : theirs)
    {
        cp.across.insert(cp.across.end(), t.begin(), t.end());
    }
}
#endif

// The field's cache on this mesh, its mesh's matrix holding the field's
// values: the pattern built when the addressing (on any rank) is new, then the
// values; in parallel hpls's distributed matrix made or given them
// (collective).  The solver of these options on this mesh, which is new (its
// setup at this solve) when none was made yet or the mesh changed.
hplsFoamCache& matrixFor
(
    const lduMatrix& matrix,
    const FieldField<Field, scalar>& bouCoeffs,
    const lduInterfaceFieldPtrsList& interfaces,
    const word& fieldName,
    const std::string& options
)
{
    const lduAddressing& addr = matrix.lduAddr();
    hplsFoamCoupling cp = processorInterfaces(interfaces, matrix, fieldName);
    std::shared_ptr<hplsFoamPattern>& m = patterns[&addr];
    const bool parallel = Pstream::parRun();
    bool rebuild = !m || !sameAddressing(*m, addr, cp);
    if (parallel)
    {
#ifdef HPLS_FOAM_MPI
        const label comm = matrix.mesh().comm();
        if (comm != UPstream::worldComm)
        {
            FatalErrorInFunction
                << "field " << fieldName << ": solver hpls runs on OpenFOAM's world"
                << " communicator only (this mesh's is " << comm << ")"
                << exit(FatalError);
        }
        reduce(rebuild, orOp<bool>(), Pstream::msgType(), comm);
        if (rebuild)
        {
            exchangeAcross(cp, interfaces, addr.size(), comm);
        }
#else
        FatalErrorInFunction
            << "field " << fieldName << ": this libhplsFoam was built on an hpls"
            << " without MPI (HPLS_MPI=OFF): no parallel runs" << exit(FatalError);
#endif
    }
    const auto start = std::chrono::steady_clock::now();
    if (rebuild)
    {
        m = buildPattern(addr, cp, parallel);
    }
    fillValues(*m, matrix, bouCoeffs, cp);
#ifdef HPLS_FOAM_MPI
    if (parallel)
    {
        const hpls_status st = m->D
            ? hpls_dcsr_set_values(m->D, m->val.data())
            : hpls_dcsr_create
              (
                  MPI_COMM_WORLD, cp.n, addr.size(), m->rowptr.data(),
                  m->gcol.data(), m->val.data(), &m->D
              );
        if (st != HPLS_OK)
        {
            FatalErrorInFunction
                << "field " << fieldName << ": hpls's distributed matrix: "
                << hpls_last_error() << exit(FatalError);
        }
        std::vector<hpls_int>().swap(m->rowptr); // D has its copy
        std::vector<hpls_int>().swap(m->gcol);
    }
#endif
    if (rebuild && hplsSolver::debug)
    {
        Info<< "hpls: the CSR pattern of a mesh of " << addr.size() << " cells ("
            << label(m->diagSlot.size() + 2*m->upperSlot.size() + m->coupledSlot.size())
            << " coefficients), for field " << fieldName << ", built with its values in "
            << since(start) << " s" << endl;
    }
    std::unique_ptr<hplsFoamCache>& c = caches[{&addr, options}];
    if (!c)
    {
        c.reset(new hplsFoamCache);
    }
    if (c->pattern != m)
    {
        // the old solver goes before the matrix it was set up on (collective on
        // ranks: every rank rebuilt alike)
        hpls_solver_destroy(c->solver);
        c->solver = nullptr;
        c->setUp = false;
        c->pattern = m;
    }
    return *c;
}

// OpenFOAM's test of a solve (the context of hplsFoamConverged)
struct hplsFoamTest
{
    solverPerformance* perf;
    const lduMatrix::solver* solver;   // its normFactor
    const scalarField *psi, *source;   // psi: the initial one at iteration 0
    scalarField *wA, *tmpField;        // A psi and normFactor's scratch
    scalar normFactor, tolerance, relTol;
    label comm; // the sum of |r| is over its ranks in a parallel run
};

} // End anonymous namespace
} // End namespace Foam

// hpls's convergence test: PCG.C's, finalResidual = sum|r| / normFactor; at
// iteration 0 (shown even under miniter) r = source - A psi of the initial
// psi, whence OpenFOAM's normFactor (lduMatrixSolver.C) with A psi = source
// - r, and the initial residual
extern "C" int hplsFoamConverged
(
    void* ctx, hpls_int it, hpls_int n, const hpls_real* r, double
)
{
    Foam::hplsFoamTest& t = *static_cast<Foam::hplsFoamTest*>(ctx);
    if (it == 0)
    {
        const Foam::scalarField& source = *t.source;
        Foam::scalarField& wA = *t.wA;
        for (hpls_int i = 0; i < n; i++)
        {
            wA[i] = source[i] - r[i];
        }
        t.normFactor = t.solver->normFactor(*t.psi, source, wA, *t.tmpField);
        if (Foam::lduMatrix::debug >= 2)
        {
            Foam::Info<< "   Normalisation factor = " << t.normFactor << Foam::endl;
        }
    }
    Foam::scalar sumR = 0;
    for (hpls_int i = 0; i < n; i++)
    {
        sumR += Foam::mag(r[i]);
    }
    if (Foam::Pstream::parRun()) // gSumMag: every rank gets the same sum
    {
        Foam::reduce(sumR, Foam::sumOp<Foam::scalar>(), Foam::Pstream::msgType(), t.comm);
    }
    t.perf->finalResidual() = sumR/t.normFactor;
    if (it == 0)
    {
        t.perf->initialResidual() = t.perf->finalResidual();
    }
    return t.perf->checkConvergence(t.tolerance, t.relTol);
}


Foam::hplsSolver::hplsSolver
(
    const word& fieldName,
    const lduMatrix& matrix,
    const FieldField<Field, scalar>& interfaceBouCoeffs,
    const FieldField<Field, scalar>& interfaceIntCoeffs,
    const lduInterfaceFieldPtrsList& interfaces,
    const dictionary& solverControls
)
:
    lduMatrix::solver
    (
        fieldName,
        matrix,
        interfaceBouCoeffs,
        interfaceIntCoeffs,
        interfaces,
        solverControls
    )
{}


Foam::solverPerformance Foam::hplsSolver::solve
(
    scalarField& psi,
    const scalarField& source,
    const direction // cmpt: Amul's, whose A psi is hpls's b - A psi here
) const
{
    solverPerformance solverPerf(typeName, fieldName_);
    const dictionary hplsDict(controlDict_.subOrEmptyDict("hpls"));
    const std::vector<std::string> kv = hplsOptions(hplsDict);
    std::string options;
    for (const std::string& o : kv)
    {
        options += (options.empty() ? "" : " ") + o;
    }
    hplsFoamCache* c = &matrixFor(matrix_, interfaceBouCoeffs_, interfaces_, fieldName_, options);

    const hpls_int n = psi.size();
    hpls_vec x{n, psi.begin()};
    hpls_vec b{n, const_cast<scalar*>(source.begin())}; // hpls only reads b

    if (!c->solver)
    {
        newSolver(*c, kv, hplsDict, fieldName_);
    }

    // OpenFOAM's initial residual and normFactor (PCG.C) come from hpls's own
    // b - A psi, in the test at iteration 0; an initial psi that meets the
    // test ends the solve there with no iteration, as in PCG.C
    hplsFoamPattern& m = *c->pattern;
    m.wA.setSize(n);
    m.tmpField.setSize(n);
    hplsFoamTest test
    {
        &solverPerf, this, &psi, &source, &m.wA, &m.tmpField, 1.0, tolerance_, relTol_,
        matrix().mesh().comm()
    };
    hpls_solver_set_convergence_test(c->solver, hplsFoamConverged, &test);
    char stop[128];
    std::snprintf
    (
        stop, sizeof stop, "maxiter=%lld miniter=%lld",
        (long long)max(maxIter_, 1), (long long)max(minIter_, 0)
    );
    if (c->stop != stop)
    {
        // solve-time options keep the setup, but solver=auto chooses afresh
        if (hpls_solver_auto(c->solver))
        {
            c->setUp = false;
        }
        hpls_solver_set_options(c->solver, stop);
        c->stop = stop;
    }

    const bool first = !c->setUp;
    const auto start = std::chrono::steady_clock::now();
#ifdef HPLS_FOAM_MPI
    const hpls_status st = m.D
        ? (c->setUp ? hpls_solver_update_dcsr(c->solver, m.D)
                    : hpls_solver_setup_dcsr(c->solver, m.D))
        : (c->setUp ? hpls_solver_update_values(c->solver, m.A)
                    : hpls_solver_setup(c->solver, m.A));
#else
    const hpls_status st = c->setUp
        ? hpls_solver_update_values(c->solver, m.A)
        : hpls_solver_setup(c->solver, m.A);
#endif
    if (st != HPLS_OK)
    {
        c->setUp = false;
        FatalErrorInFunction
            << "field " << fieldName_ << ": hpls setup (" << options << "): "
            << hpls_solver_message(c->solver) << exit(FatalError);
    }
    if (first && hplsSolver::debug)
    {
        Info<< "hpls: setup (" << options.c_str() << ") at field " << fieldName_ << " in "
            << since(start) << " s" << endl;
    }
    c->setUp = true;
    if (hpls_solver_solve(c->solver, &b, &x) != HPLS_OK)
    {
        FatalErrorInFunction
            << "field " << fieldName_ << ": hpls solve (" << options << "): "
            << hpls_solver_message(c->solver) << exit(FatalError);
    }
    hpls_solver_set_convergence_test(c->solver, nullptr, nullptr); // test dies here
    hpls_info info;
    hpls_solver_get_info(c->solver, &info);
    solverPerf.nIterations() = label(info.iterations); // finalResidual: the test's last
    if (info.reason != HPLS_DIVERGED_MAXIT && !hpls_reason_converged(info.reason))
    {
        WarningInFunction
            << "field " << fieldName_ << ": hpls (" << options << ") stopped: "
            << hpls_reason_str(info.reason) << " " << hpls_solver_message(c->solver)
            << endl;
    }
    return solverPerf;
}
