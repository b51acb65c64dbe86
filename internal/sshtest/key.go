// Client keys: fresh ed25519 identities for test and load-generator clients.

package sshtest

import (
	"crypto/ed25519"
	"crypto/rand"
	"fmt"

	gossh "golang.org/x/crypto/ssh"
)

// NewKey returns a freshly generated ed25519 signer, usable as a client
// identity for [Dial] or as a host key for a test server. Each call yields a
// distinct key, so each client appears to the server as a different player.
func NewKey() (gossh.Signer, error) {
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("sshtest: generate ed25519 key: %w", err)
	}
	signer, err := gossh.NewSignerFromKey(priv)
	if err != nil {
		return nil, fmt.Errorf("sshtest: ed25519 signer: %w", err)
	}
	return signer, nil
}
