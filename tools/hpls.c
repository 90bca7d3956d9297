#include "hpls.h"
int main(void) { return 0; }
