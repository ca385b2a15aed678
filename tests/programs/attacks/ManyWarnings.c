/* Not an attack: a C program gcc compiles (exit status 0) with 300 ordinary warnings, on by default
 * (an integer initialising a pointer), about 200 KB of compiler messages. It answers 0, as Checker.py
 * does. The build must succeed; its output may be cut. */
#include <stdio.h>

#define W(n) int f##n(void) { char *p = n##L; return (int)(long)p; }
#define W10(n) W(n##0) W(n##1) W(n##2) W(n##3) W(n##4) W(n##5) W(n##6) W(n##7) W(n##8) W(n##9)
#define W100(n) W10(n##0) W10(n##1) W10(n##2) W10(n##3) W10(n##4) W10(n##5) W10(n##6) W10(n##7) W10(n##8) W10(n##9)
W100(1) W100(2) W100(3)

int main(void) {
    FILE *answer = fopen("outputf.txt", "w");
    fputs("0\n", answer);
    fclose(answer);
    return 0;
}
