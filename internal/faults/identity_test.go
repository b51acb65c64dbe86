package faults

import (
	"context"
	"io"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"github.com/grotto-game/grotto/internal/sshtest"
)

// forgedSigner offers one key's public half and signs with another's
// private key: a client that holds only the victim's public key (it is
// public) and tries it first, as in CVE-2023-43809 (soft-serve). The
// server accepts the offer, then refuses what comes as its signature.
type forgedSigner struct {
	pub    gossh.PublicKey // the victim's
	priv   gossh.Signer    // the attacker's
	signed atomic.Bool     // the server accepted the offer: the client went on to sign
}

func (f *forgedSigner) PublicKey() gossh.PublicKey { return f.pub }

// Sign answers for a key the client does not hold: a signature of
// another format than the key's, which the server refuses as a failed
// attempt and goes on (RFC 4252 section 7), as it refuses OpenSSH's
// move to its next key; a signature that merely does not verify ends
// golang.org/x/crypto/ssh's server handshake instead.
func (f *forgedSigner) Sign(rand io.Reader, data []byte) (*gossh.Signature, error) {
	f.signed.Store(true)
	sig, err := f.priv.Sign(rand, data)
	if err != nil {
		return nil, err
	}
	return &gossh.Signature{Format: gossh.KeyAlgoRSASHA512, Blob: sig.Blob}, nil
}

// TestIdentityIsTheKeyThatAuthenticated replays CVE-2023-43809 with an
// in-process client: it offers the victim's public key, which the server
// accepts, cannot sign with it (it has no private half), and
// authenticates with the attacker's own key. The session must be the
// attacker's, never the victim's. It never skips: the client is this
// process's, and the test fails if the server never accepted the offer
// (then it would prove nothing).
func TestIdentityIsTheKeyThatAuthenticated(t *testing.T) {
	if testing.Short() {
		t.Skip("fault suite")
	}
	onEachStore(t, identityIsTheKey)
}

func identityIsTheKey(t *testing.T, b backend) {
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

	mallory, err := sshtest.NewKey()
	if err != nil {
		t.Fatal(err)
	}
	forged := &forgedSigner{pub: victim.key.PublicKey(), priv: mallory}
	c, err := sshtest.Dial(p.addr, mallory, sshtest.Options{Width: 100, Height: 30, User: "mallory", Offer: []gossh.Signer{forged}})
	if err != nil {
		t.Fatalf("the attacker could not log in with their own key: %v", err)
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	screen, err := c.WaitFor(ctx, func(s string) bool {
		return strings.Contains(s, "Choose the name") || strings.Contains(s, "Continue")
	})
	if err != nil {
		t.Fatalf("no screen to tell whose session it is: %v\n%s", err, c.Screen())
	}
	if !forged.signed.Load() {
		t.Fatal("the server did not accept the offer of the victim's key, so the attack was not tried")
	}
	if strings.Contains(screen, "Continue") || strings.Contains(screen, "Saved game") {
		t.Fatalf("the attacker got the victim's game:\n%s", screen)
	}
	if !strings.Contains(screen, "Choose the name") {
		t.Errorf("the attacker was not a new player:\n%s", screen)
	}
}
