package main

import (
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/memdir/memdir/internal/extract"
)

func main() {
	at := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	for _, t := range os.Args[1:] {
		cs, _ := extract.Heuristic([]extract.Message{{Role: "user", Text: t, Time: at}}, "s")
		fmt.Println(">>", t)
		for _, c := range cs {
			fmt.Printf("   [%s] %s | %s\n      %s\n", c.Type, c.Name, c.Description, strings.ReplaceAll(c.Body, "\n", " / "))
		}
	}
}
