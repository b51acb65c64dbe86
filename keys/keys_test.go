package keys

import (
	"crypto/ed25519"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	gossh "golang.org/x/crypto/ssh"
)

// Test keys generated once with ssh-keygen; the fingerprints are what
// `ssh-keygen -lf` printed for them.
const (
	aliceKey = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIB5bjRI6JoGLS/Ahmf5BeoLFZSOYoca8CmLmB+mjT0gp alice@test"
	aliceFP  = "SHA256:q/yxftOaFwdA7JwwbAzcnhlza+x5jiHlCDM+BxywCgc"
	bobKey   = "ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAABBBPZiDd/TG6T4ZW6ghDrOwSn+P6FzUfImi4u1dutaaSrc1yVDWovkXv/kOzTLbLq1dtsmU8e3FNgzBAYxYLWYXr4= bob@test"
	bobFP    = "SHA256:cZLzimYMtMbYXbhWK35q2b/wawBnGDjiuaoIlLrYX7w"
	carolKey = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIBH/cKjK9e0mOp5mFka5XKpQgimCUptSMIUt/5YdvNop carol@test"
	carolFP  = "SHA256:LcJq+CMaM4G1LPZddMJwT/jAbiBjZEiXa7Gq/45D/PE"
)

func TestFingerprintMatchesSSHKeygen(t *testing.T) {
	for _, tc := range []struct{ name, line, want string }{
		{"ed25519", aliceKey, aliceFP},
		{"ecdsa", bobKey, bobFP},
	} {
		t.Run(tc.name, func(t *testing.T) {
			k, _, _, _, err := gossh.ParseAuthorizedKey([]byte(tc.line))
			if err != nil {
				t.Fatal(err)
			}
			if got := Fingerprint(k); got != tc.want {
				t.Errorf("Fingerprint = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestParseAuthorizedKeys(t *testing.T) {
	data := "# grotto admins\r\n" +
		"\n" +
		"   \t\n" +
		aliceKey + "\r\n" +
		`restrict,from="10.0.0.0/8",command="echo hi there" ` + bobKey + "\n" +
		"  # indented comment " + carolKey + "\n" +
		aliceKey + " again" // a duplicate counts once; no final newline
	s, err := ParseAuthorizedKeys([]byte(data))
	if err != nil {
		t.Fatal(err)
	}
	if s.Len() != 2 {
		t.Errorf("Len = %d, want 2", s.Len())
	}
	for fp, want := range map[string]bool{aliceFP: true, bobFP: true, carolFP: false, "": false} {
		if got := s.Contains(fp); got != want {
			t.Errorf("Contains(%q) = %v, want %v", fp, got, want)
		}
	}
}

func TestParseAuthorizedKeysEmptyMeansNoAdmins(t *testing.T) {
	for _, data := range []string{"", "\n\n", "# nobody\n"} {
		s, err := ParseAuthorizedKeys([]byte(data))
		if err != nil || s.Len() != 0 || s.Contains(aliceFP) {
			t.Errorf("ParseAuthorizedKeys(%q) = %d keys, %v; want 0 keys, nil", data, s.Len(), err)
		}
	}
	var zero AdminSet
	if zero.Len() != 0 || zero.Contains(aliceFP) {
		t.Error("zero AdminSet is not empty")
	}
}

func TestParseAuthorizedKeysBadLineNamesItsNumber(t *testing.T) {
	for _, tc := range []struct{ name, data, want string }{
		{"garbage", "# c\n" + aliceKey + "\nnot a key at all\n", "line 3:"},
		{"truncated base64", "\n\nssh-ed25519 AAAAC3NzaC1lZDI1\n", "line 3:"},
		{"type mismatch", "ssh-rsa " + strings.TrimPrefix(aliceKey, "ssh-ed25519 "), "line 1:"},
		{"lone word", aliceKey + "\r\n" + bobKey + "\r\nrestrict\r\n", "line 3:"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseAuthorizedKeys([]byte(tc.data))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want it to contain %q", err, tc.want)
			}
		})
	}
}

func TestLoadAuthorizedKeys(t *testing.T) {
	dir := t.TempDir()

	t.Run("a file of keys loads", func(t *testing.T) {
		path := filepath.Join(dir, "admins")
		if err := os.WriteFile(path, []byte(aliceKey+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		s, err := LoadAuthorizedKeys(path)
		if err != nil || !s.Contains(aliceFP) || s.Len() != 1 {
			t.Errorf("got %d keys, err %v; want alice only", s.Len(), err)
		}
	})
	t.Run("an empty file means no admins", func(t *testing.T) {
		path := filepath.Join(dir, "empty")
		if err := os.WriteFile(path, nil, 0o600); err != nil {
			t.Fatal(err)
		}
		s, err := LoadAuthorizedKeys(path)
		if err != nil || s.Len() != 0 {
			t.Errorf("got %d keys, err %v; want none, nil", s.Len(), err)
		}
	})
	t.Run("a missing file is an error naming the path", func(t *testing.T) {
		path := filepath.Join(dir, "missing")
		_, err := LoadAuthorizedKeys(path)
		if err == nil || !strings.Contains(err.Error(), path) {
			t.Errorf("err = %v, want it to name %s", err, path)
		}
		if !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("err = %v, want it to wrap fs.ErrNotExist", err)
		}
	})
	t.Run("a bad line names the path and line", func(t *testing.T) {
		path := filepath.Join(dir, "bad")
		if err := os.WriteFile(path, []byte(aliceKey+"\nbogus\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		_, err := LoadAuthorizedKeys(path)
		if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "line 2:") {
			t.Errorf("err = %v, want it to name %s and line 2", err, path)
		}
	})
}

func TestOptionsOnAnAdminLineAreReportedAsIgnored(t *testing.T) {
	data := "# admins\n" + aliceKey + "\n" +
		`from="10.9.9.9" ` + bobKey + "\n" +
		`restrict,command="/bin/false" ` + carolKey + "\n"
	s, err := ParseAuthorizedKeys([]byte(data))
	if err != nil {
		t.Fatal(err)
	}
	// grotto honours none of them: every listed key is an admin from
	// anywhere, and the host must be told so.
	if !s.Contains(bobFP) || !s.Contains(carolFP) {
		t.Error("a key with options is not an admin")
	}
	got := s.IgnoredOptions()
	want := []IgnoredOptions{
		{Line: 3, Fingerprint: bobFP, Options: []string{`from="10.9.9.9"`}},
		{Line: 4, Fingerprint: carolFP, Options: []string{"restrict", `command="/bin/false"`}},
	}
	if len(got) != len(want) {
		t.Fatalf("ignored options %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i].Line != want[i].Line || got[i].Fingerprint != want[i].Fingerprint || strings.Join(got[i].Options, ",") != strings.Join(want[i].Options, ",") {
			t.Errorf("ignored options %d: %+v, want %+v", i, got[i], want[i])
		}
	}
}

func TestValidFingerprintTakesOnlyWhatFingerprintReturns(t *testing.T) {
	pub, _, err := ed25519.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	k, err := gossh.NewPublicKey(pub)
	if err != nil {
		t.Fatal(err)
	}
	if fp := Fingerprint(k); !ValidFingerprint(fp) {
		t.Errorf("a key's own fingerprint %q is not valid", fp)
	}
	for _, bad := range []string{"", "SHA256:", "SHA256:huge", "MD5:" + strings.Repeat("a", 43), "SHA256:" + strings.Repeat("a", 44),
		"SHA256:\x1b]0;x\a" + strings.Repeat("a", 36), "SHA256:" + strings.Repeat("a", 42) + "="} {
		if ValidFingerprint(bad) {
			t.Errorf("%q is taken for a fingerprint", bad)
		}
	}
}
