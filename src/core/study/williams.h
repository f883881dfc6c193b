/* Balanced Latin squares (Williams design, E. J. Williams 1949): orders of n
 * conditions in which every condition appears once in every position and
 * every condition is followed by every other one equally often, so a
 * carry-over effect from one race to the next is spread over all pairs.
 *
 * Construction: the first row is 0, 1, n-1, 2, n-2, 3, ... (a_0 = 0; for
 * j >= 1, a_j = (j + 1) / 2 when j is odd, n - j / 2 when j is even); row i
 * adds i to every entry modulo n. For even n the successive differences
 * a_{j+1} - a_j (mod n) are 1, -2, 3, -4, ..., all distinct and non-zero,
 * so each ordered pair (x, y), x != y, is adjacent in exactly one of the n
 * rows. For odd n they are not; the n rows are followed by their mirror
 * images (row n + i is row i reversed): 2n rows in which each ordered pair
 * is adjacent exactly twice and each condition is in each position twice.
 *
 * Contracts:
 *   williams_rows(n)          n for even n, 2n for odd n; 0 for n < 1.
 *   williams_row(n, r, out)   row r (taken modulo williams_rows(n)) into
 *        out[0..n): a permutation of 0..n-1. False when n < 1.
 */
#ifndef NR_WILLIAMS_H
#define NR_WILLIAMS_H

#include <stdbool.h>

int williams_rows(int n);
bool williams_row(int n, int r, int *out);

#endif
