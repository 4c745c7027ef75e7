/* libFuzzer target: the OBJ reader (cc_mesh_read_obj, src/mesh/mesh.c).
 *
 * The input is written to a file of its own and read as a mesh. The reader either refuses it
 * with a one-line message or returns a mesh whose triangles name existing vertices and whose
 * coordinates are finite; the mesh then builds its hinges and is written out again.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "mesh/mesh.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[64], back[72], err[CC_ERRLEN];
    snprintf(path, sizeof path, "/tmp/cc_fuzz_obj_%d.obj", (int)getpid());
    snprintf(back, sizeof back, "%s.out", path);
    FILE *f = fopen(path, "wb");
    if (!f) return 0;
    fwrite(data, 1, size, f);
    fclose(f);
    err[0] = '\0';
    cc_mesh *m = cc_mesh_read_obj(path, err);
    if (!m) {
        if (!err[0] || strchr(err, '\n')) abort();
        return 0;
    }
    for (int t = 0; t < 3 * m->nt; t++)
        if (m->tri[t] < 0 || m->tri[t] >= m->nv) abort();
    for (int i = 0; i < 3 * m->nv; i++)
        if (!isfinite(m->x[i])) abort();
    if (cc_mesh_build_hinges(m, err) == 0) cc_mesh_write_obj(m, back, err);
    cc_mesh_free(m);
    unlink(back);
    return 0;
}
