package faults

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"
)

// TestIdentityIsTheKeyThatAuthenticated replays CVE-2023-43809 (soft-serve)
// with the real OpenSSH client: it offers the victim's public key, which
// the server accepts, cannot sign with it (it has no private half), and
// authenticates with the attacker's own key. The session must be the
// attacker's, never the victim's.
func TestIdentityIsTheKeyThatAuthenticated(t *testing.T) {
	if testing.Short() {
		t.Skip("fault suite")
	}
	onEachStore(t, identityIsTheKey)
}

func identityIsTheKey(t *testing.T, b backend) {
	sshBin, err := exec.LookPath("ssh")
	if err != nil {
		t.Skip("no OpenSSH client")
	}
	dir := t.TempDir()
	p := b.start(t, anyPort, filepath.Join(dir, "data"))
	victim := newPlayers(t, 1)[0]
	victim.name = "victim"
	victim.connect(t, p.addr) // the victim has a profile and a game
	victim.step(t, ".")
	victim.c.Send("S")
	select {
	case <-victim.c.Done():
	case <-time.After(30 * time.Second):
		t.Fatalf("the victim's session still runs 30 s after S (save and quit):\n%s", victim.c.Screen())
	}

	pub := filepath.Join(dir, "victim.pub")
	os.WriteFile(pub, gossh.MarshalAuthorizedKey(victim.key.PublicKey()), 0o600)
	own := filepath.Join(dir, "mallory")
	if out, err := exec.Command("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", own).CombinedOutput(); err != nil {
		t.Skipf("ssh-keygen: %v %s", err, out)
	}
	tmux, err := exec.LookPath("tmux")
	if err != nil {
		t.Skip("no tmux to give the OpenSSH client a terminal")
	}
	_, port, _ := strings.Cut(p.addr, ":")
	logFile := filepath.Join(dir, "ssh.log")
	sock := fmt.Sprintf("grotto-faults-%d-%s", os.Getpid(), b.name) // its own tmux server: the other store's run goes on beside it
	sshCmd := strings.Join([]string{sshBin, "-v", "-E", logFile, "-p", port, "-o", "IdentitiesOnly=yes", "-o", "IdentityAgent=none",
		"-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null", "-o", "BatchMode=yes",
		"-i", pub, "-i", own, "mallory@127.0.0.1"}, " ")
	if out, err := exec.Command(tmux, "-L", sock, "new-session", "-d", "-x", "100", "-y", "30", sshCmd).CombinedOutput(); err != nil {
		t.Skipf("tmux: %v %s", err, out)
	}
	defer exec.Command(tmux, "-L", sock, "kill-server").Run()
	var screen string
	for range 100 { // 5 s at most: the screen is read until it shows either
		time.Sleep(50 * time.Millisecond) // pacing: tmux has no event to wait on
		out, _ := exec.Command(tmux, "-L", sock, "capture-pane", "-p").Output()
		if screen = string(out); strings.Contains(screen, "Choose the name") || strings.Contains(screen, "Continue") {
			break
		}
	}
	logBytes, _ := os.ReadFile(logFile)
	if !strings.Contains(string(logBytes), "Server accepts key: "+pub) {
		t.Skipf("the client did not offer the victim's key first:\n%s", logBytes)
	}
	if strings.Contains(screen, "Continue") || strings.Contains(screen, "Saved game") {
		t.Fatalf("the attacker got the victim's game:\n%s", screen)
	}
	if !strings.Contains(screen, "Choose the name") {
		t.Errorf("the attacker was not a new player:\n%s", screen)
	}
}
