// Command jiaohao is the queue-calling program of a branch; see app.Main.
package main

import (
	"os"

	"jiaohao/app"
)

func main() { os.Exit(app.Main(os.Args[1:])) }
