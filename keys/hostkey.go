// The server's host key: loaded from a file, or created there on first
// start, so that every node behind one address can present the same key.

package keys

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	gossh "golang.org/x/crypto/ssh"
)

// HostKeyError is returned by LoadOrCreateHostKey when the file cannot be
// used as a host key: it names the file and says what is wrong and what to
// do, e.g. "host key /etc/grotto/host_ed25519 is a public key: give the
// private key file (without .pub)".
type HostKeyError struct {
	Path    string // the host key file
	Problem string // what is wrong, and what to do
	Err     error  // the cause, if any
}

func (e *HostKeyError) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("host key %s %s (%v)", e.Path, e.Problem, e.Err)
	}
	return fmt.Sprintf("host key %s %s", e.Path, e.Problem)
}

func (e *HostKeyError) Unwrap() error { return e.Err }

// LoadOrCreateHostKey returns the host key in the private key file at path,
// in OpenSSH or PEM form (what ssh-keygen writes; ed25519, ECDSA or RSA).
// When no file is at path it creates an ed25519 key there (mode 0600, and
// the public half beside it as path+".pub", the line a host publishes for
// known_hosts), creating missing directories; two processes creating the
// same file at once end with one key, the first to link it into place.
//
// Errors are a *HostKeyError naming the file: it cannot be read (a
// directory, no permission), it is empty, it is a public key, it needs a
// passphrase, or it is not a private key at all. Nothing is ever written
// over an existing file.
func LoadOrCreateHostKey(path string) (gossh.Signer, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		if err := createHostKey(path); err != nil {
			return nil, err
		}
		data, err = os.ReadFile(path)
	}
	if err != nil {
		return nil, &HostKeyError{Path: path, Problem: "cannot be read", Err: err}
	}
	return parseHostKey(path, data)
}

// parseHostKey parses data, the contents of the host key file path.
func parseHostKey(path string, data []byte) (gossh.Signer, error) {
	if len(data) == 0 {
		return nil, &HostKeyError{Path: path, Problem: "is empty: delete it to have a new key made, or put the shared private key there"}
	}
	signer, err := gossh.ParsePrivateKey(data)
	if err == nil {
		return signer, nil
	}
	var pass *gossh.PassphraseMissingError
	switch {
	case errors.As(err, &pass):
		return nil, &HostKeyError{Path: path, Problem: "is protected by a passphrase; grotto needs a host key without one (ssh-keygen -p -N '' -f FILE removes it)"}
	case isPublicKey(data):
		return nil, &HostKeyError{Path: path, Problem: "is a public key: give the private key file (without .pub)"}
	}
	return nil, &HostKeyError{Path: path, Problem: "is not an SSH private key (make one with ssh-keygen -t ed25519 -N '' -f FILE)", Err: err}
}

// isPublicKey reports whether data holds a public key (an authorized_keys
// line, as in a .pub file).
func isPublicKey(data []byte) bool {
	_, _, _, _, err := gossh.ParseAuthorizedKey(data)
	return err == nil
}

// createHostKey writes a new ed25519 key to path without ever replacing a
// file there: it writes a temporary file in the same directory and links
// it into place, which fails if another process got there first (that
// key is then the one everybody uses).
func createHostKey(path string) error {
	fail := func(err error) error {
		return &HostKeyError{Path: path, Problem: "could not be created", Err: err}
	}
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return fail(err)
	}
	block, err := gossh.MarshalPrivateKey(priv, "")
	if err != nil {
		return fail(err)
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fail(err)
	}
	tmp, err := os.CreateTemp(dir, ".host-key-*")
	if err != nil {
		return fail(err)
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return fail(err)
	}
	if err := pem.Encode(tmp, block); err != nil {
		tmp.Close()
		return fail(err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fail(err)
	}
	if err := tmp.Close(); err != nil {
		return fail(err)
	}
	if err := os.Link(tmp.Name(), path); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return nil // another process made it first: use theirs
		}
		return fail(err)
	}
	if sshPub, err := gossh.NewPublicKey(pub); err == nil {
		// The public half is a convenience for the host (known_hosts);
		// grotto never reads it, so failing to write it is no error.
		os.WriteFile(path+".pub", gossh.MarshalAuthorizedKey(sshPub), 0o644)
	}
	return nil
}
