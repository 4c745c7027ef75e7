// Included first (g++ -include) to build Freecloth with its Float (a typedef of float) read as
// double: every standard header is included before `float` is redefined, so only Freecloth's
// own code and adapter.cpp see the change. Used by build.sh for fc_adapter_double and
// fc_adapter_fixed, to tell single-precision rounding apart from a formula's departure.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <iostream>
#include <sstream>
#include <fstream>
#include <iomanip>
#include <string>
#include <vector>
#include <list>
#include <map>
#include <set>
#include <algorithm>
#include <functional>
#include <memory>
#include <limits>
#include <typeinfo>
#include <sys/time.h>
#define float double
