// Package keys turns SSH public keys into player identities and reads the
// admin list from an OpenSSH authorized_keys file.
//
// A player is identified by the SHA256 fingerprint of the key their session
// authenticated with, in the form `ssh-keygen -l` prints:
// "SHA256:" followed by unpadded standard base64 of the key's SHA-256 digest.
package keys

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"os"
	"strings"

	gossh "golang.org/x/crypto/ssh"
)

// Fingerprint returns the SHA256 fingerprint of k exactly as `ssh-keygen -l`
// prints it, e.g. "SHA256:q/yxftOaFwdA7JwwbAzcnhlza+x5jiHlCDM+BxywCgc".
// It is the player identity used throughout grotto.
func Fingerprint(k gossh.PublicKey) string {
	return gossh.FingerprintSHA256(k)
}

// ValidFingerprint reports whether fp has the form Fingerprint returns:
// "SHA256:" and the 43 characters of unpadded standard base64 of a
// 32-byte digest. (A typed key is checked before it is stored or shown.)
func ValidFingerprint(fp string) bool {
	b64, ok := strings.CutPrefix(fp, "SHA256:")
	if !ok || len(b64) != 43 {
		return false
	}
	sum, err := base64.RawStdEncoding.DecodeString(b64)
	return err == nil && len(sum) == sha256.Size
}

// AdminSet is an immutable set of key fingerprints (see [Fingerprint]) allowed
// to use admin features. The zero value is an empty set. It is safe for
// concurrent use.
type AdminSet struct {
	fps     map[string]struct{}
	ignored []IgnoredOptions
}

// IgnoredOptions is an admin line whose options grotto does not honour:
// OpenSSH would restrict the key (from=, restrict, command=, …), but in
// grotto the key is an admin from anywhere with every right, so a host must
// be told.
type IgnoredOptions struct {
	Line        int      // 1-based line number in the file
	Fingerprint string   // the line's key (see [Fingerprint])
	Options     []string // as written, e.g. `from="10.9.9.9"`
}

// IgnoredOptions returns the lines that had options, in file order; the
// caller must not change it.
func (s AdminSet) IgnoredOptions() []IgnoredOptions { return s.ignored }

// Contains reports whether fp, a fingerprint as returned by [Fingerprint], is
// in the set.
func (s AdminSet) Contains(fp string) bool {
	_, ok := s.fps[fp]
	return ok
}

// Len returns the number of distinct keys in the set.
func (s AdminSet) Len() int { return len(s.fps) }

// ParseAuthorizedKeys parses data in OpenSSH authorized_keys format: one key
// per line, optionally preceded by options (e.g. `restrict,from="10.0.0.1"`)
// and followed by a comment. Blank lines and lines starting with '#' are
// skipped; options are accepted but not honoured (the key is an admin from
// anywhere): [AdminSet.IgnoredOptions] lists the lines that had them, for
// the host's log. A line that holds no valid key
// makes it return an error naming the 1-based line number. Empty data yields
// an empty set and no error.
func ParseAuthorizedKeys(data []byte) (AdminSet, error) {
	fps := make(map[string]struct{})
	var ignored []IgnoredOptions
	for n, line := range bytes.Split(data, []byte("\n")) {
		line = bytes.TrimSpace(line) // also drops a trailing '\r'
		if len(line) == 0 || line[0] == '#' {
			continue
		}
		// One line at a time: given several lines, ParseAuthorizedKey
		// silently skips the ones it cannot parse.
		k, _, options, _, err := gossh.ParseAuthorizedKey(line)
		if err != nil {
			return AdminSet{}, fmt.Errorf("line %d: %w", n+1, err)
		}
		fps[Fingerprint(k)] = struct{}{}
		if len(options) > 0 {
			ignored = append(ignored, IgnoredOptions{Line: n + 1, Fingerprint: Fingerprint(k), Options: options})
		}
	}
	return AdminSet{fps: fps, ignored: ignored}, nil
}

// LoadAuthorizedKeys reads and parses the authorized_keys file at path (see
// [ParseAuthorizedKeys]). A missing or unreadable file is an error, and every
// error names path. An empty file yields an empty set: no admins.
func LoadAuthorizedKeys(path string) (AdminSet, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return AdminSet{}, fmt.Errorf("read admin keys: %w", err) // *PathError names path
	}
	s, err := ParseAuthorizedKeys(data)
	if err != nil {
		return AdminSet{}, fmt.Errorf("admin keys %s: %w", path, err)
	}
	return s, nil
}
