#include <stdio.h>
int main(void) {
    long a = 0, b = 0, total = 0, x;
    FILE *in = fopen("inputf.txt", "r");
    if (!in) return 1;
    while (fscanf(in, "%ld", &x) == 1) total += x;
    fclose(in);
    (void)a; (void)b;
    FILE *out = fopen("outputf.txt", "w");
    fprintf(out, "%ld\n", total);
    fclose(out);
    return 0;
}
