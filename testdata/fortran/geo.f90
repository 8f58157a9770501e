! testdata/fortran/geo.f90 - Fortran derived types for tests/e2e/fortran.sh,
! built at test time with gfortran -g.  gfortran puts a module's types
! inside its DW_TAG_module, so the reader must look there and name them
! with their module (geo::pt).  Run, the program prints what the compiler
! decided (storage_size, c_sizeof, and offsets from loc()), one
! "TYPE KEY VALUE" line each.
module geo
  use iso_c_binding
  implicit none
  type :: pt
    logical(1) :: flag
    real(8) :: x
    integer(4) :: id
  end type pt
  type, bind(c) :: cpt
    integer(c_int8_t) :: tag
    real(c_double) :: y
    integer(c_int16_t) :: z
  end type cpt
end module geo

program main
  use geo
  implicit none
  type(pt) :: p
  type(cpt) :: c
  print '(a,i0)', 'geo::pt size ', storage_size(p) / 8
  print '(a,i0)', 'geo::pt flag ', loc(p%flag) - loc(p)
  print '(a,i0)', 'geo::pt x ', loc(p%x) - loc(p)
  print '(a,i0)', 'geo::pt id ', loc(p%id) - loc(p)
  print '(a,i0)', 'geo::cpt size ', c_sizeof(c)
  print '(a,i0)', 'geo::cpt tag ', loc(c%tag) - loc(c)
  print '(a,i0)', 'geo::cpt y ', loc(c%y) - loc(c)
  print '(a,i0)', 'geo::cpt z ', loc(c%z) - loc(c)
end program main
