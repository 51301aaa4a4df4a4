/* placeholder: written by the is session */
int main(void) { return 1; }
