package server

import (
	"strings"
	"testing"

	"charm.land/ssh"
	"charm.land/wish/v2/testsession"
	gossh "golang.org/x/crypto/ssh"

	"github.com/grotto-game/grotto/keys"
)

func TestASessionWithoutAKeyIsRefusedWithHowToMakeOne(t *testing.T) {
	addr := unit(t, identify)
	out, errs, status := run(t, login(t, addr, "alice", nil), "")
	if status != 1 || !strings.Contains(errs, "ssh-keygen -t ed25519") || strings.Contains(out, reached) {
		t.Errorf("a session with a password only: status %d, %q, %q; want refused with how to make a key", status, out, errs)
	}
}

func TestIdentityIsTheFingerprintOfTheSessionsKey(t *testing.T) {
	who := func(sess ssh.Session) {
		id := sess.Context().Value(ctxIdentity).(identity)
		sess.Write([]byte(id.fp + " " + id.name + "|"))
	}
	addr := unitTo(t, who, identify)
	key := newKey(t)
	for _, tc := range []struct{ user, suggested string }{
		{"alice", "alice"},
		{"not a name", ""},        // a space: not suggested, the player types a name
		{"seventeen-letters", ""}, // too long
		{"-", "-"},
	} {
		out, _, status := run(t, login(t, addr, tc.user, key), "")
		if want := keys.Fingerprint(key.PublicKey()) + " " + tc.suggested + "|"; status != 0 || out != want {
			t.Errorf("user %q: status %d, identity %q; want %q", tc.user, status, out, want)
		}
	}
}

func TestKeyboardInteractiveIsRefusedWithHowToMakeAKey(t *testing.T) {
	addr := unit(t)
	var said string
	ask := gossh.KeyboardInteractive(func(_, instruction string, _ []string, _ []bool) ([]string, error) {
		said += instruction
		return nil, nil
	})
	if _, err := testsession.NewClientSession(t, addr, &gossh.ClientConfig{User: "x", Auth: []gossh.AuthMethod{ask}}); err == nil {
		t.Fatal("a keyboard-interactive login was accepted")
	}
	if !strings.Contains(said, "ssh-keygen -t ed25519") {
		t.Errorf("the client was told %q; want how to make a key", said)
	}
}
