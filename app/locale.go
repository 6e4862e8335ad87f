package app

// The C locale is normalised before the GUI toolkit initialises; see the
// package's comment.
import _ "clocale"
