// Authentication and identity: every public key is welcome and is the
// player's identity; keyboard-interactive is refused with how to make a key;
// a session's identity is read from the key it authenticated with.

package server

import (
	"charm.land/ssh"
	"charm.land/wish/v2"
	gossh "golang.org/x/crypto/ssh"

	"github.com/grotto-game/grotto/game/tui"
	"github.com/grotto-game/grotto/keys"
	"github.com/grotto-game/grotto/server/guard"
)

// acceptKey is the server's public-key handler: every key is welcome (it
// is the player's identity), and the deadline for a session starts.
func acceptKey(ctx ssh.Context, _ ssh.PublicKey) bool {
	guard.Authenticated(ctx)
	return true
}

// publicKeyAuth is acceptKey, counted in the server's metrics
// (grotto_auth_attempts_total{method="publickey"}).
func (s *Server) publicKeyAuth(ctx ssh.Context, k ssh.PublicKey) bool {
	ok := acceptKey(ctx, k)
	s.metrics.Authenticated("publickey", ok)
	return ok
}

// keyboardAuth is explainKeys, counted in the server's metrics
// (grotto_auth_attempts_total{method="keyboard-interactive"}).
func (s *Server) keyboardAuth(ctx ssh.Context, c gossh.KeyboardInteractiveChallenge) bool {
	ok := explainKeys(ctx, c)
	s.metrics.Authenticated("keyboard-interactive", ok)
	return ok
}

// identity is who a session is: read from the key it authenticated with.
type identity struct {
	fp   string
	name string
}

// explainKeys refuses keyboard-interactive login, which clients try when they
// have no key, and tells the person how to make one: OpenSSH prints the
// instruction before "Permission denied".
func explainKeys(ctx ssh.Context, challenge gossh.KeyboardInteractiveChallenge) bool {
	if ctx.Value(ctxExplained) != nil {
		return false // clients retry; say it once per connection
	}
	ctx.SetValue(ctxExplained, true)
	challenge("", "grotto knows players by their SSH key, and your client offered none.\n"+
		"Make one with: ssh-keygen -t ed25519   then connect again.\n", nil, nil)
	return false
}

// identify takes the player's identity from the public key the session
// authenticated with (never from a key merely offered in the handshake).
func identify(next ssh.Handler) ssh.Handler {
	return func(sess ssh.Session) {
		k := sess.PublicKey()
		if k == nil {
			wish.Fatalln(sess, "grotto needs an SSH key. Make one with: ssh-keygen -t ed25519")
			return
		}
		name := sess.User()
		if !tui.ValidName(name) {
			name = "" // suggested nothing: the player types a name
		}
		sess.Context().SetValue(ctxIdentity, identity{fp: keys.Fingerprint(k), name: name})
		next(sess)
	}
}

// isAdmin reports whether the session's key is an admin's now.
func (s *Server) isAdmin(sess ssh.Session) bool {
	id, ok := sess.Context().Value(ctxIdentity).(identity)
	return ok && s.policy.admins.Load().Contains(id.fp)
}
