package main

import (
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/memdir/memdir/internal/extract"
)

// args: DATE TEXT DATE TEXT ...
func main() {
	a := os.Args[1:]
	for i := 0; i+1 < len(a); i += 2 {
		at, _ := time.Parse("2006-01-02", a[i])
		at = at.Add(10 * time.Hour)
		t := a[i+1]
		cs, _ := extract.Heuristic([]extract.Message{{Role: "user", Text: t, Time: at}}, "s")
		fmt.Println(">>", a[i], t)
		for _, c := range cs {
			fmt.Printf("   [%s] %s | %s\n", c.Type, c.Name, c.Description)
			_ = strings.ReplaceAll
		}
	}
}
