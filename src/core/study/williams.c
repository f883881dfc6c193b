/* Williams-design balanced Latin squares (see williams.h for the proof sketch). */
#include "williams.h"

int williams_rows(int n)
{
    if (n < 1)
        return 0;
    return n % 2 == 0 ? n : 2 * n;
}

bool williams_row(int n, int r, int *out)
{
    int rows = williams_rows(n);
    if (rows == 0)
        return false;
    r = ((r % rows) + rows) % rows;
    int shift = r % n;
    bool mirror = r >= n; /* odd n: the second half of the rows */
    for (int j = 0; j < n; j++) {
        int a = j == 0 ? 0 : j % 2 == 1 ? (j + 1) / 2 : n - j / 2;
        out[mirror ? n - 1 - j : j] = (a + shift) % n;
    }
    return true;
}
