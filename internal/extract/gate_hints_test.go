package extract

import (
	"testing"

	"github.com/memdir/memdir/internal/lazyre"
)

func TestPrintHints(t *testing.T) {
	for _, re := range lazyre.All() {
		t.Logf("%q\n   %q", re.String()[:min(60, len(re.String()))], requiredLiterals(re.String()))
	}
}
