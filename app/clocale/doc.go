// Package clocale makes the "C" locale of many Linux installs and
// containers (LANG=C.UTF-8) read as what it is, no language preference,
// before the GUI toolkit looks at it. Without this the toolkit logs
// "Error parsing user locale C" on every start and every command, since
// "C" is not a language tag.
//
// It is a module of its own so that its import path sorts before the
// toolkit's: Go initialises ready packages in import-path order, and the
// toolkit reads the locale in its own init, before any package of the
// program runs. The program then falls back to its default language.
package clocale
