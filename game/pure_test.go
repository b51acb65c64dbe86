package game

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestTheCoreImportsNoClockIOOrUI: a game is a function of its seed and its
// commands (rule 1 of the house), so the core and its pure subpackages
// import no clock, no file, network or process I/O, no goroutine-based
// library and no UI (math/rand is allowed: only seeded *rand.Rand values
// passed in are used). A daily's date comes in as a string.
func TestTheCoreImportsNoClockIOOrUI(t *testing.T) {
	forbidden := []string{"time", "os", "os/exec", "net", "net/http",
		"charm.land/bubbletea/v2", "charm.land/lipgloss/v2"}
	for _, dir := range []string{".", "content", "world", "mapgen", "replay", "bot", "frame"} {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			file, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
			if err != nil {
				t.Fatal(err)
			}
			for _, imp := range file.Imports {
				path, _ := strconv.Unquote(imp.Path.Value)
				for _, bad := range forbidden {
					if path == bad {
						t.Errorf("%s imports %s", f, path)
					}
				}
			}
		}
	}
}
