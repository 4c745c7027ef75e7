/* Files written whole or not at all, and a small gnuplot driver.
 *
 * Every plot is three files side by side in one directory: NAME.dat (the data), NAME.gp
 * (a script that plots it; re-make the plot by hand with `cd DIR && gnuplot NAME.gp`) and
 * NAME.png. Data and scripts are written as cc_outfile (io/files.h: a temporary file renamed
 * into place), and
 * gnuplot draws each PNG into a temporary file renamed on success, so an interrupted or
 * failed run never leaves a half-written output. Without gnuplot on PATH the data and the
 * scripts are still written; cc_gp_run says so by returning -1.
 */
#ifndef CC_GNUPLOT_H
#define CC_GNUPLOT_H

#include "io/error.h"

#include <stdio.h>

#include "io/files.h"

#define CC_PATH_MAX 4096

/* path = dir/name.ext into buf (CC_PATH_MAX); 0, or -1 if too long */
int cc_path_join(char *buf, const char *dir, const char *name, const char *ext);

/* 1 if name is a plain file stem gnuplot scripts may use ([A-Za-z0-9._-], not empty) */
int cc_gp_name_ok(const char *name);

/* the PNG terminal of the gnuplot on PATH ("pngcairo" or "png"), or NULL if there is none */
const char *cc_gp_terminal(void);

/* Start dir/name.dat (readable by all, like the script and the PNG); the caller writes
 * whitespace-separated columns ("NaN" for gaps) and commits with cc_outfile_commit.
 * 0, or -1 with err. */
int cc_gp_data_open(cc_outfile *o, const char *dir, const char *name, char *err);

/* Start dir/name.gp: a header naming the data, a PNG terminal (pngcairo if the running
 * gnuplot has it, else png) of w x h pixels, and output to name.png. The caller writes the
 * plot commands to o->f, then cc_gp_script_close. 0, or -1 with err. */
int cc_gp_script_open(cc_outfile *o, const char *dir, const char *name, int w, int h,
                      char *err);
/* Start dir/name.gp for an animated GIF (gnuplot's `gif animate` terminal), w x h pixels,
 * delay hundredths of a second between frames, output to name.gif: every plot command the
 * caller writes is one frame. 0, or -1 with err. */
int cc_gp_anim_open(cc_outfile *o, const char *dir, const char *name, int w, int h, int delay,
                    char *err);
/* end the script (close its output) and commit it; 0, or -1 with err */
int cc_gp_script_close(cc_outfile *o, char *err);

/* Run gnuplot once in dir over the scripts names[i].gp, each drawing names[i].png through a
 * temporary file. Returns the number of PNGs made, or -1 if gnuplot is not available. */
int cc_gp_run(const char *dir, const char *const *names, int n);
/* the same for scripts whose output is names[i] + ext (".png", ".gif") */
int cc_gp_run_as(const char *dir, const char *const *names, int n, const char *ext);

#endif
