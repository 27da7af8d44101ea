// gate_macros_end.h: ends what gate_macros.h began.
#undef ALWAYS
#undef ACCORD_GATE_
#undef WHEN
#undef UNLESS
#undef IS
#undef RELEASE
#undef IN_RELEASE
