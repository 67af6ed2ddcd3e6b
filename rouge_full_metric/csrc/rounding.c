/* Part of the _core translation unit: csrc/_core.c includes this file after core.h and the
 * files listed before it there; it is not compiled on its own. */

/* ------------------------------------------------------------------------------------------ */
/* rounding: float("%.5f" % x) without the GIL                                                 */

/* Correctly rounded to 5 decimals (ties to even on exact binary ties), as Python's "%.5f"
 * formatting followed by float(): k/1e5 is then the double nearest to the decimal k/100000,
 * which is what float() of the printed string gives.  fma() makes the comparisons with the
 * decimal grid exact. */
static double round5(double x) {
    if (x >= 0.0 && x < 1e4) {
        /* x * 1e5 is within 2^-24 of the exact product here, so unless its fraction is near
         * one half the exact product rounds the same way: no fma() needed */
        double y = x * 1e5, fl = floor(y), frac = y - fl;
        if (frac < 0.5 - 1e-6) return fl / 1e5;
        if (frac > 0.5 + 1e-6) return (fl + 1.0) / 1e5;
    }
    if (!(x >= 0.0) || x >= 1e10) {
        if (x < 0.0 && x > -1e10) return -round5(-x);
        return x; /* nan/inf/huge: not produced by ROUGE ratios */
    }
    double k = floor(x * 1e5);
    if (fma(x, 1e5, -k) < 0.0) k -= 1.0;
    else if (fma(x, 1e5, -(k + 1.0)) >= 0.0) k += 1.0;
    double t = fma(x, 2e5, -(2.0 * k + 1.0));
    if (t > 0.0 || (t == 0.0 && fmod(k, 2.0) != 0.0)) k += 1.0;
    return k / 1e5;
}
