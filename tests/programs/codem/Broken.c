/* Does not compile: the team sits out with its build output shown. */
int main(void) { return undefined_symbol; }
