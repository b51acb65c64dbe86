package server

import (
	"errors"
	"strings"
	"testing"

	"charm.land/ssh"
	"charm.land/wish/v2"
	"charm.land/wish/v2/testsession"
	gossh "golang.org/x/crypto/ssh"
)

// reached is what the handler after the middleware under test writes: the
// session got through.
const reached = "reached the game"

// unit serves the middleware mw alone (outermost first, then a handler
// that writes reached) with wish's testsession, and returns its address.
// Every key and every password is accepted, so that the middleware, not
// the handshake, decides.
func unit(t *testing.T, mw ...wish.Middleware) string {
	t.Helper()
	return unitTo(t, func(sess ssh.Session) { sess.Write([]byte(reached)) }, mw...)
}

// unitTo is unit with the handler after the middleware.
func unitTo(t *testing.T, last ssh.Handler, mw ...wish.Middleware) string {
	t.Helper()
	h := last
	for i := len(mw) - 1; i >= 0; i-- {
		h = mw[i](h)
	}
	return testsession.Listen(t, &ssh.Server{
		Handler:                    h,
		HostSigners:                []ssh.Signer{newKey(t)},
		PublicKeyHandler:           func(ssh.Context, ssh.PublicKey) bool { return true },
		PasswordHandler:            func(ssh.Context, string) bool { return true },
		KeyboardInteractiveHandler: explainKeys,
	})
}

// login opens a session on addr as user with key, or with a password when
// key is nil.
func login(t *testing.T, addr, user string, key gossh.Signer) *gossh.Session {
	t.Helper()
	auth := gossh.Password("hunter2")
	if key != nil {
		auth = gossh.PublicKeys(key)
	}
	sess, err := testsession.NewClientSession(t, addr, &gossh.ClientConfig{User: user, Auth: []gossh.AuthMethod{auth}})
	if err != nil {
		t.Fatal(err)
	}
	return sess
}

// run runs cmd ("" for a shell) on sess and returns what it wrote on
// stdout and stderr and its exit status.
func run(t *testing.T, sess *gossh.Session, cmd string) (stdout, stderr string, status int) {
	t.Helper()
	var out, errs strings.Builder
	sess.Stdout, sess.Stderr = &out, &errs
	var err error
	within(t, "the session to end", func() {
		if cmd == "" {
			if err = sess.Shell(); err == nil {
				err = sess.Wait()
			}
		} else {
			err = sess.Run(cmd)
		}
	})
	var exit *gossh.ExitError
	switch {
	case errors.As(err, &exit):
		status = exit.ExitStatus()
	case err != nil:
		t.Fatalf("%q: %v", cmd, err)
	}
	return out.String(), errs.String(), status
}
