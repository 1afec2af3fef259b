# AX_MEMTOP_CFLAG(FLAG): append FLAG to WARN_CFLAGS when the compiler takes it.
AC_DEFUN([AX_MEMTOP_CFLAG], [
  AC_MSG_CHECKING([whether $CC accepts $1])
  memtop_save_CFLAGS="$CFLAGS"
  CFLAGS="$CFLAGS -Werror $1"
  AC_COMPILE_IFELSE([AC_LANG_PROGRAM([], [])],
    [AC_MSG_RESULT([yes]); WARN_CFLAGS="$WARN_CFLAGS $1"],
    [AC_MSG_RESULT([no])])
  CFLAGS="$memtop_save_CFLAGS"
])

# AX_MEMTOP_PTHREAD: find how to link POSIX threads; sets PTHREAD_CFLAGS/LIBS.
AC_DEFUN([AX_MEMTOP_PTHREAD], [
  AC_MSG_CHECKING([for -pthread])
  memtop_save_CFLAGS="$CFLAGS"
  CFLAGS="$CFLAGS -pthread"
  AC_LINK_IFELSE([AC_LANG_PROGRAM([[#include <pthread.h>]],
      [[pthread_t t; return pthread_create(&t, 0, 0, 0);]])],
    [AC_MSG_RESULT([yes]); PTHREAD_CFLAGS="-pthread"; PTHREAD_LIBS="-pthread"],
    [AC_MSG_RESULT([no])
     AC_SEARCH_LIBS([pthread_create], [pthread], [],
       [AC_MSG_ERROR([POSIX threads not found: apt-get install libc6-dev])])])
  CFLAGS="$memtop_save_CFLAGS"
  AC_SUBST([PTHREAD_CFLAGS])
  AC_SUBST([PTHREAD_LIBS])
])
