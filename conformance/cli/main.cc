// main.cc: the `accord` command (cli.cc has the command line, commands.h the exit status conventions).
#include "commands.h"

int main(int argc, char** argv) { return accord::cli::run(argc, argv); }
