package metrics

import (
	"os/exec"
	"path/filepath"
	"testing"
)

// The alert rules a host loads (docs/prometheus/alerts.yml) parse, and
// fire as their tests say (docs/prometheus/alerts_test.yml): a node down
// or not ready for minutes, slow keys, turns waiting for storage, unsaved
// games, failing lease renewals; and stay quiet for a drain of seconds or
// one renewal failure.
func TestTheAlertRulesParseAndFireAsTheirTestsSay(t *testing.T) {
	promtool, err := exec.LookPath("promtool")
	if err != nil {
		if testing.Short() {
			t.Skip("promtool is not installed (apt-get install -y prometheus); skipped under -short")
		}
		t.Fatal("promtool is not installed: apt-get install -y prometheus (.ci/run installs it when missing); run with -short to skip")
	}
	dir := filepath.Join("..", "..", "docs", "prometheus")
	for _, args := range [][]string{{"check", "rules", "alerts.yml"}, {"test", "rules", "alerts_test.yml"}} {
		cmd := exec.Command(promtool, args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("promtool %v: %v\n%s", args, err, out)
		}
	}
}
