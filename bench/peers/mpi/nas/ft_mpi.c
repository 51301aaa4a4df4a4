/* placeholder: written by the ft session */
int main(void) { return 1; }
