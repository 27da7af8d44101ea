// gate_macros_end.h: ends what gate_macros.h began.
#undef ALWAYS
#undef ACCORD_GATE_
#undef ACCORD_GATE_BITS_
#undef ACCORD_REL_BIT_
#undef ACCORD_REL1_
#undef ACCORD_REL2_
#undef ACCORD_REL3_
#undef ACCORD_REL_PICK_
#undef WHEN
#undef UNLESS
#undef IS
#undef RELEASE
#undef IN_RELEASE
#undef IN_RELEASES
