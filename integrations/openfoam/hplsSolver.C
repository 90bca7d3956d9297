// SPDX-License-Identifier: BSD-3-Clause
// hplsSolver.C: the lduMatrix::solver "hpls" (hplsSolver.H).  OpenFOAM's LDU
// matrix (lduMatrix.H: diag, upper[f] at row lowerAddr[f], column
// upperAddr[f], lower[f] at the transposed place) becomes a CSR matrix once per
// mesh; at every solve only its values are written (through a map kept with the
// pattern) and hpls_solver_update_values redoes the numeric setup.  psi and
// source are handed to hpls in place.  The stop test is OpenFOAM's own, given
// to hpls as its convergence test (hpls_solver_set_convergence_test): the
// residual |r|_1 / normFactor, normFactor = sum(|A psi - sumA xRef| + |source
// - sumA xRef|) + 1e-20 of the initial psi, xRef its mean, sumA A's row sums
// (lduMatrixSolver.C), below tolerance or relTol times its initial value
// (SolverPerformance.C), tested where PCG.C and PBiCGStab.C test it; the
// initial residual and normFactor by OpenFOAM's own Amul and normFactor.
#include "hplsSolver.H"
#include "addToRunTimeSelectionTable.H"

#include "hpls.h"

#include <algorithm>
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

// One field's matrix on one mesh, and the hpls solver set up on it
struct hplsFoamCache
{
    std::vector<label> lowerAddr, upperAddr; // the addressing it was built for
    hpls_csr* A = nullptr;
    std::vector<hpls_int> diagSlot;  // A->val index of diag[i]
    std::vector<hpls_int> upperSlot; // of upper[f]: row lowerAddr[f], column upperAddr[f]
    std::vector<hpls_int> lowerSlot; // of lower[f]: row upperAddr[f], column lowerAddr[f]
    hpls_solver* solver = nullptr;
    std::string options;             // the hpls options the solver was set up with
    std::string stop;                // the maxiter and miniter last set
    bool setUp = false;              // solver set up on A (else the next solve sets it up)

    ~hplsFoamCache()
    {
        hpls_solver_destroy(solver);
        hpls_csr_destroy(A);
    }
};

// Keyed on the addressing object and the field: OpenFOAM makes a solver
// object per solve, the cache outlives it (and every mesh, until exit)
std::map<std::pair<const void*, std::string>, std::unique_ptr<hplsFoamCache>> caches;

bool sameAddressing(const hplsFoamCache& c, const lduAddressing& addr)
{
    const labelUList& l = addr.lowerAddr();
    const labelUList& u = addr.upperAddr();
    return label(c.diagSlot.size()) == addr.size()
        && label(c.lowerAddr.size()) == l.size()
        && std::equal(l.begin(), l.end(), c.lowerAddr.begin())
        && std::equal(u.begin(), u.end(), c.upperAddr.begin());
}

// The CSR pattern of the addressing, columns sorted, two faces between the
// same cells sharing one entry, and where each LDU coefficient goes
std::unique_ptr<hplsFoamCache> buildPattern(const lduAddressing& addr)
{
    std::unique_ptr<hplsFoamCache> c(new hplsFoamCache);
    const labelUList& l = addr.lowerAddr();
    const labelUList& u = addr.upperAddr();
    const hpls_int n = addr.size(), nf = l.size();
    c->lowerAddr.assign(l.begin(), l.end());
    c->upperAddr.assign(u.begin(), u.end());

    // entries (column, source): source i < n is diag[i], n + f upper[f], n + nf + f lower[f]
    std::vector<hpls_int> start(n + 1, 0);
    for (hpls_int i = 0; i < n; i++)
    {
        start[i + 1] = 1;
    }
    for (hpls_int f = 0; f < nf; f++)
    {
        start[l[f] + 1]++;
        start[u[f] + 1]++;
    }
    for (hpls_int i = 0; i < n; i++)
    {
        start[i + 1] += start[i];
    }
    std::vector<std::pair<hpls_idx, hpls_int>> entry(start[n]);
    std::vector<hpls_int> next(start.begin(), start.end() - 1);
    for (hpls_int i = 0; i < n; i++)
    {
        entry[next[i]++] = {hpls_idx(i), i};
    }
    for (hpls_int f = 0; f < nf; f++)
    {
        entry[next[l[f]]++] = {hpls_idx(u[f]), n + f};
        entry[next[u[f]]++] = {hpls_idx(l[f]), n + nf + f};
    }

    std::vector<hpls_int> rowptr(n + 1, 0);
    std::vector<hpls_idx> colind;
    colind.reserve(entry.size());
    std::vector<hpls_int> slot(n + 2*nf);
    for (hpls_int i = 0; i < n; i++)
    {
        std::sort(entry.begin() + start[i], entry.begin() + start[i + 1]);
        for (hpls_int k = start[i]; k < start[i + 1]; k++)
        {
            if (k == start[i] || entry[k].first != entry[k - 1].first)
            {
                colind.push_back(entry[k].first);
            }
            slot[entry[k].second] = hpls_int(colind.size()) - 1;
        }
        rowptr[i + 1] = hpls_int(colind.size());
    }

    if (hpls_csr_create(n, n, hpls_int(colind.size()), &c->A) != HPLS_OK)
    {
        FatalErrorInFunction
            << "hpls_csr_create (" << n << " rows, " << label(colind.size())
            << " entries): " << hpls_last_error() << exit(FatalError);
    }
    std::copy(rowptr.begin(), rowptr.end(), c->A->rowptr);
    std::copy(colind.begin(), colind.end(), c->A->colind);
    c->diagSlot.assign(slot.begin(), slot.begin() + n);
    c->upperSlot.assign(slot.begin() + n, slot.begin() + n + nf);
    c->lowerSlot.assign(slot.begin() + n + nf, slot.end());
    return c;
}

// A's values from the matrix's coefficients (summed where faces share an entry)
void fillValues(hplsFoamCache& c, const lduMatrix& m)
{
    hpls_real* val = c.A->val;
    std::fill(val, val + c.A->nnz, 0.0);
    const scalarField& d = m.diag();
    const scalarField& up = m.upper();
    const scalarField& lo = m.lower(); // upper() itself when m is symmetric
    forAll(d, i)
    {
        val[c.diagSlot[i]] += d[i];
    }
    forAll(up, f)
    {
        val[c.upperSlot[f]] += up[f];
        val[c.lowerSlot[f]] += lo[f];
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

// A new hpls solver for the cache, with the dictionary's options (a bad one
// is a FatalIOError naming it); its setup comes at the next solve
void newSolver
(
    hplsFoamCache& c,
    const std::vector<std::string>& kv,
    const std::string& options,
    const dictionary& hplsDict,
    const word& fieldName
)
{
    hpls_solver_destroy(c.solver);
    c.solver = nullptr;
    c.setUp = false;
    if (hpls_solver_create(&c.solver) != HPLS_OK)
    {
        FatalErrorInFunction
            << "hpls_solver_create: " << hpls_last_error() << exit(FatalError);
    }
    // OpenFOAM's psi is the initial guess; the dictionary may still say otherwise
    hpls_solver_set_option(c.solver, "initial_guess=given");
    for (const std::string& o : kv)
    {
        if (hpls_solver_set_option(c.solver, o.c_str()) != HPLS_OK)
        {
            FatalIOErrorInFunction(hplsDict)
                << "field " << fieldName << ": hpls option " << o << ": "
                << hpls_solver_message(c.solver) << exit(FatalIOError);
        }
    }
    c.options = options;
    c.stop.clear();
}

// OpenFOAM's test of a solve (the context of hplsFoamConverged)
struct hplsFoamTest
{
    solverPerformance* perf;
    scalar normFactor, tolerance, relTol;
};

} // End anonymous namespace
} // End namespace Foam

// hpls's convergence test: PCG.C's, finalResidual = sum|r| / normFactor
extern "C" int hplsFoamConverged
(
    void* ctx, hpls_int, hpls_int n, const hpls_real* r, double
)
{
    Foam::hplsFoamTest& t = *static_cast<Foam::hplsFoamTest*>(ctx);
    Foam::scalar sumR = 0;
    for (hpls_int i = 0; i < n; i++)
    {
        sumR += Foam::mag(r[i]);
    }
    t.perf->finalResidual() = sumR/t.normFactor;
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
    const direction cmpt
) const
{
    solverPerformance solverPerf(typeName, fieldName_);

    // coupled interfaces (processor, cyclic ...) would be off-diagonal
    // entries outside lduAddressing: not yet (issue 31)
    forAll(interfaces_, i)
    {
        if (interfaces_.set(i))
        {
            FatalErrorInFunction
                << "field " << fieldName_ << ": coupled interface " << i << " ("
                << interfaces_[i].interfaceFieldType()
                << ") is not supported by solver hpls yet; use another solver"
                << " for this field" << exit(FatalError);
        }
    }

    const dictionary hplsDict(controlDict_.subOrEmptyDict("hpls"));
    const std::vector<std::string> kv = hplsOptions(hplsDict);
    std::string options;
    for (const std::string& o : kv)
    {
        options += (options.empty() ? "" : " ") + o;
    }

    const lduAddressing& addr = matrix_.lduAddr();
    std::unique_ptr<hplsFoamCache>& c = caches[{&addr, fieldName_}];
    if (!c || !sameAddressing(*c, addr))
    {
        c = buildPattern(addr);
    }
    fillValues(*c, matrix_);

    const hpls_int n = psi.size();
    hpls_vec x{n, psi.begin()};
    hpls_vec b{n, const_cast<scalar*>(source.begin())}; // hpls only reads b

    // OpenFOAM's initial residual, by its own A psi and normFactor (PCG.C)
    scalarField wA(n), tmpField(n);
    matrix_.Amul(wA, psi, interfaceBouCoeffs_, interfaces_, cmpt);
    const scalar normFactor = this->normFactor(psi, source, wA, tmpField);
    solverPerf.initialResidual() =
        gSumMag(scalarField(source - wA), matrix().mesh().comm())/normFactor;
    solverPerf.finalResidual() = solverPerf.initialResidual();
    if (lduMatrix::debug >= 2)
    {
        Info<< "   Normalisation factor = " << normFactor << endl;
    }
    if (minIter_ <= 0 && solverPerf.checkConvergence(tolerance_, relTol_))
    {
        return solverPerf;
    }

    if (!c->solver || c->options != options)
    {
        newSolver(*c, kv, options, hplsDict, fieldName_);
    }

    hplsFoamTest test{&solverPerf, normFactor, tolerance_, relTol_};
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

    const hpls_status st = c->setUp
        ? hpls_solver_update_values(c->solver, c->A)
        : hpls_solver_setup(c->solver, c->A);
    if (st != HPLS_OK)
    {
        c->setUp = false;
        FatalErrorInFunction
            << "field " << fieldName_ << ": hpls setup (" << options << "): "
            << hpls_solver_message(c->solver) << exit(FatalError);
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
