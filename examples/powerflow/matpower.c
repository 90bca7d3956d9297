/* SPDX-License-Identifier: BSD-3-Clause */
/* matpower.c: a reader for MATPOWER case files (version 2 format): the scalar
 * mpc.baseMVA and the matrices mpc.bus, mpc.gen, mpc.branch; every other statement
 * (mpc.gencost, mpc.bus_name = { ... }, function lines) is skipped. MATLAB syntax:
 * "%" comments to end of line, rows ended by ";" or a newline, values separated by
 * blanks or commas, "..." continues a line. Errors name the file and the line. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "powerflow.h"

/* Where the reader is: the text, the current line, and where to report. */
typedef struct cursor {
  const char *p;     /* next character */
  int line;          /* its line, from 1 */
  const char *file;  /* for messages */
  char *err;         /* PF_ERRLEN bytes */
} cursor;

static int fail(cursor *c, int line, const char *fmt, ...) {
  int k = snprintf(c->err, PF_ERRLEN, "%s:%d: ", c->file, line);
  if (k < 0 || k >= PF_ERRLEN) return -1; /* the file name alone fills err: no room left */
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(c->err + k, PF_ERRLEN - (size_t)k, fmt, ap);
  va_end(ap);
  return -1;
}

/* Skip to the end of the line, leaving the newline (or the end of text) next. */
static void skip_comment(cursor *c) {
  while (*c->p != '\0' && *c->p != '\n') c->p++;
}

static int is_continuation(const cursor *c) { return strncmp(c->p, "...", 3) == 0; }

/* After "...": the rest of the line is a comment and the newline is not an end. */
static void skip_continuation(cursor *c) {
  skip_comment(c);
  if (*c->p == '\n') {
    c->p++;
    c->line++;
  }
}

/* Skip the rest of a statement: up to a ";" or newline outside brackets, strings and
 * comments; the terminator is consumed. */
static void skip_statement(cursor *c) {
  int depth = 0;
  while (*c->p != '\0') {
    char ch = *c->p;
    if (ch == '%') {
      skip_comment(c);
    } else if (is_continuation(c)) {
      skip_continuation(c);
    } else if (ch == '\'') {
      c->p++;
      while (*c->p != '\0' && *c->p != '\'' && *c->p != '\n') c->p++;
      if (*c->p == '\'') c->p++;
    } else if (ch == '\n' || ch == ';') {
      c->p++;
      if (ch == '\n') c->line++;
      if (depth == 0) return;
    } else {
      if (ch == '[' || ch == '{' || ch == '(') depth++;
      if ((ch == ']' || ch == '}' || ch == ')') && depth > 0) depth--;
      c->p++;
    }
  }
}

/* One token of a number ends at a blank, comma, row end, bracket or comment. */
static int ends_number(char ch) {
  return ch == ' ' || ch == '\t' || ch == '\r' || ch == ',' || ch == ';' || ch == '\n' ||
         ch == ']' || ch == '%' || ch == '\0';
}

/* Copy the offending token (up to a separator) into buf for a message. */
static const char *token(const char *p, char *buf, size_t size) {
  size_t k = 0;
  while (k + 1 < size && !ends_number(p[k])) {
    buf[k] = p[k];
    k++;
  }
  buf[k] = '\0';
  return buf;
}

static int read_number(cursor *c, const char *what, double *out) {
  char *end;
  char tok[64];
  *out = strtod(c->p, &end);
  /* NaN is never data; Inf only as a generator limit (MATPOWER's "no limit") */
  int inf_ok = strcmp(what, "mpc.gen") == 0;
  if (end == c->p || !ends_number(*end) || isnan(*out) || (isinf(*out) && !inf_ok))
    return fail(c, c->line, "%s: bad number '%s'", what, token(c->p, tok, sizeof tok));
  c->p = end;
  return 0;
}

/* Append one value to a growing array. */
static int push(double **v, size_t *len, size_t *cap, double x) {
  if (*len == *cap) {
    size_t ncap = *cap ? 2 * *cap : 1024;
    double *nv = realloc(*v, ncap * sizeof **v);
    if (!nv) return -1;
    *v = nv;
    *cap = ncap;
  }
  (*v)[(*len)++] = x;
  return 0;
}

static int push_line(int **l, int *cap, int rows, int line) {
  if (rows == *cap) {
    int ncap = *cap ? 2 * *cap : 256;
    int *nl = realloc(*l, (size_t)ncap * sizeof **l);
    if (!nl) return -1;
    *l = nl;
    *cap = ncap;
  }
  (*l)[rows] = line;
  return 0;
}

/* Read "[ rows ]" (the "[" already consumed) into m; what names it in messages. */
static int read_matrix(cursor *c, const char *what, pf_matrix *m) {
  size_t len = 0;
  size_t cap = 0;
  int lcap = 0;
  int count = 0;      /* values in the current row */
  int row_line = 0;   /* line on which the current row started */
  int start = c->line;
  for (;;) {
    char ch = *c->p;
    if (ch == ' ' || ch == '\t' || ch == '\r' || ch == ',') {
      c->p++;
    } else if (ch == '%') {
      skip_comment(c);
    } else if (is_continuation(c)) {
      skip_continuation(c);
    } else if (ch == '\0') {
      return fail(c, c->line, "%s: end of file inside the matrix opened on line %d", what, start);
    } else if (ch == '\n' || ch == ';' || ch == ']') {
      if (count > 0) {  /* a row ends; empty rows are ignored */
        if (m->rows == 0) m->cols = count;
        if (count != m->cols)
          return fail(c, row_line, "%s: row has %d values, expected %d", what, count, m->cols);
        if (push_line(&m->line, &lcap, m->rows, row_line)) return fail(c, c->line, "out of memory");
        m->rows++;
        count = 0;
      }
      c->p++;
      if (ch == '\n') c->line++;
      if (ch == ']') break;
    } else {
      double x;
      if (read_number(c, what, &x)) return -1;
      if (count == 0) row_line = c->line;
      if (push(&m->v, &len, &cap, x)) return fail(c, c->line, "out of memory");
      count++;
    }
  }
  skip_statement(c); /* the "];" */
  return 0;
}

/* Read the whole file into a NUL-terminated buffer. */
static char *slurp(const char *file, char *err) {
  struct stat sb; /* a directory reads as an error, a FIFO may never end */
  if (stat(file, &sb) == 0 && !S_ISREG(sb.st_mode)) {
    snprintf(err, PF_ERRLEN, "%s: %s", file, S_ISDIR(sb.st_mode) ? "is a directory" : "not a regular file");
    return NULL;
  }
  FILE *f = fopen(file, "rb");
  if (!f) {
    snprintf(err, PF_ERRLEN, "%s:0: cannot open (%s)", file, strerror(errno));
    return NULL;
  }
  size_t cap = 1 << 16;
  size_t len = 0;
  char *buf = malloc(cap);
  while (buf) {
    len += fread(buf + len, 1, cap - len - 1, f);
    if (len < cap - 1) break;
    char *nb = realloc(buf, 2 * cap);
    if (!nb) {
      free(buf);
      buf = NULL;
      break;
    }
    buf = nb;
    cap *= 2;
  }
  if (!buf) snprintf(err, PF_ERRLEN, "%s:0: out of memory", file);
  else if (ferror(f)) {
    snprintf(err, PF_ERRLEN, "%s:0: read error", file);
    free(buf);
    buf = NULL;
  } else buf[len] = '\0';
  fclose(f);
  return buf;
}

/* One statement "mpc.NAME = value": read the fields we need, skip the others. */
static int read_field(cursor *c, pf_case *cs, const char *name) {
  pf_matrix *m = NULL;
  if (strcmp(name, "bus") == 0) m = &cs->bus;
  if (strcmp(name, "gen") == 0) m = &cs->gen;
  if (strcmp(name, "branch") == 0) m = &cs->branch;
  int is_base = strcmp(name, "baseMVA") == 0;
  if (!m && !is_base) {
    skip_statement(c);
    return 0;
  }
  while (*c->p == ' ' || *c->p == '\t') c->p++;
  if (*c->p != '=') return fail(c, c->line, "mpc.%s: expected '='", name);
  c->p++;
  while (*c->p == ' ' || *c->p == '\t') c->p++;
  if (is_base) {
    if (cs->base_line) return fail(c, c->line, "mpc.baseMVA defined twice (first on line %d)", cs->base_line);
    cs->base_line = c->line;
    if (read_number(c, "mpc.baseMVA", &cs->base_mva)) return -1;
    if (!(cs->base_mva > 0)) return fail(c, c->line, "mpc.baseMVA must be positive (%g)", cs->base_mva);
    skip_statement(c);
    return 0;
  }
  char what[40];
  snprintf(what, sizeof what, "mpc.%s", name);
  if (m->at) return fail(c, c->line, "%s defined twice (first on line %d)", what, m->at);
  m->at = c->line;
  if (*c->p != '[') return fail(c, c->line, "%s: expected '['", what);
  c->p++;
  return read_matrix(c, what, m);
}

/* A matrix must be present and have at least mincols columns. */
static int check_matrix(cursor *c, const pf_matrix *m, const char *what, int mincols) {
  if (!m->at) return fail(c, c->line, "%s is missing", what);
  if (m->rows > 0 && m->cols < mincols)
    return fail(c, m->line[0], "%s: rows have %d values, need at least %d", what, m->cols, mincols);
  return 0;
}

int pf_case_read(const char *file, pf_case *cs, char *err) {
  memset(cs, 0, sizeof *cs);
  cs->file = file;
  char *text = slurp(file, err);
  if (!text) return -1;
  cursor c = {text, 1, file, err};
  int rc = 0;
  while (rc == 0 && *c.p != '\0') {
    char ch = *c.p;
    if (ch == ' ' || ch == '\t' || ch == '\r' || ch == ';' || ch == ',') {
      c.p++;
    } else if (ch == '\n') {
      c.p++;
      c.line++;
    } else if (ch == '%') {
      skip_comment(&c);
    } else if (strncmp(c.p, "mpc.", 4) == 0) {
      char name[32];
      size_t k = 0;
      c.p += 4;
      while ((*c.p == '_' || (*c.p >= 'a' && *c.p <= 'z') || (*c.p >= 'A' && *c.p <= 'Z') ||
              (*c.p >= '0' && *c.p <= '9')) && k + 1 < sizeof name)
        name[k++] = *c.p++;
      name[k] = '\0';
      rc = read_field(&c, cs, name);
    } else {
      skip_statement(&c); /* "function mpc = case9" and anything else */
    }
  }
  if (rc == 0 && !cs->base_line) rc = fail(&c, c.line, "mpc.baseMVA is missing");
  if (rc == 0) rc = check_matrix(&c, &cs->bus, "mpc.bus", 9);
  if (rc == 0) rc = check_matrix(&c, &cs->gen, "mpc.gen", 8);
  if (rc == 0) rc = check_matrix(&c, &cs->branch, "mpc.branch", 11);
  free(text);
  if (rc) pf_case_free(cs);
  return rc;
}

void pf_case_free(pf_case *cs) {
  pf_matrix *m[3] = {&cs->bus, &cs->gen, &cs->branch};
  for (int k = 0; k < 3; k++) {
    free(m[k]->v);
    free(m[k]->line);
    m[k]->v = NULL;
    m[k]->line = NULL;
    m[k]->rows = 0;
  }
}
