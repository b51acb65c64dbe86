package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The systemd units a host installs (docs/systemd) are valid units, and
// the service starts grotto with flags grotto accepts.
func TestTheSystemdUnitsVerifyAndTheirFlagsParse(t *testing.T) {
	src := filepath.Join("..", "..", "docs", "systemd")
	service, err := os.ReadFile(filepath.Join(src, "grotto.service"))
	if err != nil {
		t.Fatal(err)
	}
	var start []string
	for _, line := range strings.Split(string(service), "\n") {
		if rest, ok := strings.CutPrefix(line, "ExecStart="); ok {
			start = strings.Fields(rest)
		}
	}
	if len(start) < 2 || start[0] != "/usr/local/bin/grotto" {
		t.Fatalf("ExecStart %q, want /usr/local/bin/grotto and its flags", start)
	}
	args := start[1:]
	for i, a := range args {
		if a == "/var/lib/grotto" {
			args[i] = t.TempDir()
		}
	}
	if _, err := parse(args, &bytes.Buffer{}, &bytes.Buffer{}); err != nil {
		t.Errorf("the unit's flags %q: %v", start[1:], err)
	}

	analyze, err := exec.LookPath("systemd-analyze")
	if err != nil {
		if testing.Short() {
			t.Skip("systemd-analyze is not installed (apt-get install -y systemd); skipped under -short")
		}
		t.Fatal("systemd-analyze is not installed: apt-get install -y systemd (.ci/run installs it when missing); run with -short to skip")
	}
	// A copy whose ExecStart names an executable that is there: verify
	// checks it.
	dir := t.TempDir()
	self, _ := os.Executable()
	for _, name := range []string{"grotto.service", "grotto.socket"} {
		text, err := os.ReadFile(filepath.Join(src, name))
		if err != nil {
			t.Fatal(err)
		}
		text = bytes.ReplaceAll(text, []byte("/usr/local/bin/grotto"), []byte(self))
		if err := os.WriteFile(filepath.Join(dir, name), text, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(analyze, "verify", filepath.Join(dir, "grotto.socket"), filepath.Join(dir, "grotto.service"))
	if out, err := cmd.CombinedOutput(); err != nil || len(bytes.TrimSpace(out)) > 0 {
		t.Errorf("systemd-analyze verify: %v\n%s", err, out)
	}
}
