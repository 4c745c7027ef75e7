#!/bin/bash
# Builds fc_adapter: Freecloth 0.7.1's stretch, shear and bend forces behind clothcheck's
# element protocol (force contract; README.md).
#   build.sh SRC OUT [all]
#     SRC  an export of github.com/jeske/freecoth (the folder holding freecloth/)
#     OUT  where the objects and the binaries go
#     all  also build, for telling rounding and formula apart (README.md, "Confirming"):
#          OUT/fc_adapter_double  Freecloth as it is, its Float read as double (double.h)
#          OUT/fc_adapter_fixed   in double, from a copy of simSimulator.cpp in OUT/fixed/
#                                 with three changes (below); SRC is left as it is
# Compiles Freecloth's simulator core without its GUI, -DNDEBUG as a release build. Writes
# SRC/freecloth/base/autoconf.h, the file Freecloth's configure would write.
set -eu
src=$1; out=$2; all=${3:-}; here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
out=$(cd "$out" && pwd)
cat > "$src/freecloth/base/autoconf.h" <<'H'
#define HAVE_NAMESPACES 1
#define HAVE_STD 1
#define HAVE_STL 1
#define HAVE_SSTREAM 1
#define HAVE_LIMITS 1
H
cd "$src"
core="freecloth/simulator/simMatrix.cpp freecloth/simulator/simVector.cpp
      $(ls freecloth/geom/*.cpp)
      freecloth/base/baMath.cpp freecloth/base/baStringUtil.cpp freecloth/base/baTraceEntry.cpp
      freecloth/base/baTraceStream.cpp freecloth/base/baTimeUnix.cpp
      freecloth/resmgt/rcBase.cpp freecloth/resmgt/rcShdPtr.cpp freecloth/resmgt/rcProxyShdPtr.cpp"
flags="-O2 -DNDEBUG -std=gnu++98 -fpermissive -w -I. -include stdlib.h"

# build NAME SIMSIMULATOR_CPP EXTRA_FLAGS: OUT/NAME from the core, that simSimulator.cpp, adapter.cpp
build() {
  local name=$1 sim=$2 extra=$3 obj="$out/obj_$1"
  mkdir -p "$obj"
  for f in $core "$sim"; do
    g++ $flags $extra -c "$f" -o "$obj/$(basename "$f" .cpp).o"
  done
  g++ $flags $extra -include cmath "$here/adapter.cpp" "$obj"/*.o -o "$out/$name"
  echo "$out/$name"
}

build fc_adapter freecloth/simulator/simSimulator.cpp ""
[ "$all" = all ] || exit 0

build fc_adapter_double freecloth/simulator/simSimulator.cpp "-include $here/double.h"

# The three changes, each checked to apply exactly once (or, for 2, to the four df/dx and
# df/dv outer products of shear and bend):
#  1. BendVars::calcNEderiv: dnB^/dx divides by |nA| (_nAim); it should be |nB| (_nBim).
#  2. calcShear, calcBend: block (n, m) of df/dx (and df/dv) receives dC_m dC_n^T, the transpose
#     of the dC_n dC_m^T it needs; swap the factors.
#  3. BendVars::calcCderivs: d2C is the derivative of (54), cos dsin - sin dcos, whose last
#     term dcos_n dsin_m - dsin_n dcos_m is antisymmetric; use Pritchard's (57) instead,
#     (sin^2 - cos^2)(dsin_m dcos_n + dcos_m dsin_n) + 2 sin cos (dcos_m dcos_n - dsin_m dsin_n),
#     the same in both blocks.
mkdir -p "$out/fixed"
fixed="$out/fixed/simSimulator.cpp"
perl -0777 -pe '
  $n1 = s/(_dnhatB_dxm\[ m \]\[ s \] = makeSkewRow\( _qB\[ m \], s \) \* )_nAim;/${1}_nBim;/g;
  $n2 = s/outerProduct\( (shv|bv)\._dC_dxm\[ m \], \1\._dC_dxm\[ n \] \)/outerProduct( $1._dC_dxm[ n ], $1._dC_dxm[ m ] )/g;
  $n3 = s/Float b =\s*_dcosth_dxm\[n\]\[t\] \* _dsinth_dxm\[m\]\[s\]\s*- _dsinth_dxm\[n\]\[t\] \* _dcosth_dxm\[m\]\[s\];/Float b = (_sinth*_sinth - _costh*_costh) * (_dsinth_dxm[m][s]*_dcosth_dxm[n][t] + _dcosth_dxm[m][s]*_dsinth_dxm[n][t]) + 2*_sinth*_costh * (_dcosth_dxm[m][s]*_dcosth_dxm[n][t] - _dsinth_dxm[m][s]*_dsinth_dxm[n][t]);/g;
  $n4 = s/d2C_dxndxm\(s,t\) = a - b;/d2C_dxndxm(s,t) = a + b;/g;
  END { die "changes applied $n1 $n2 $n3 $n4 times, expected 1 4 1 1: not Freecloth 0.7.1\n"
        unless $n1 == 1 && $n2 == 4 && $n3 == 1 && $n4 == 1 }
' freecloth/simulator/simSimulator.cpp > "$fixed"
build fc_adapter_fixed "$fixed" "-include $here/double.h"
