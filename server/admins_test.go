package server

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"charm.land/log/v2"
	gossh "golang.org/x/crypto/ssh"
)

func TestAdminKeyOptionsThatGrottoIgnoresAreWarnedAtLoadAndReload(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "admins")
	plain := string(gossh.MarshalAuthorizedKey(newKey(t).PublicKey()))
	if err := os.WriteFile(file, []byte(plain+`from="10.9.9.9" `+plain), 0o600); err != nil {
		t.Fatal(err)
	}
	var logs lockedBuffer
	srv, err := newServer(t, Config{Listen: "127.0.0.1:0", DataDir: filepath.Join(dir, "data"), AdminKeys: file, Logger: log.New(&logs)})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	warned := func(line, option string) bool {
		for _, l := range strings.Split(logs.String(), "\n") {
			if strings.HasPrefix(l, "WARN") && strings.Contains(l, "line="+line) && strings.Contains(l, option) && strings.Contains(l, file) {
				return true
			}
		}
		return false
	}
	if !warned("2", `from=\"10.9.9.9\"`) {
		t.Errorf("loading an admin line with from= logged no warning naming it:\n%s", logs.String())
	}
	if warned("1", "") {
		t.Errorf("a plain admin line was warned about:\n%s", logs.String())
	}
	// SIGHUP re-reads the file the same way.
	if err := os.WriteFile(file, []byte(plain+"restrict,command=\"/bin/false\" "+plain), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := srv.ReloadAdmins(); err != nil {
		t.Fatal(err)
	}
	if !warned("2", "restrict") {
		t.Errorf("reloading an admin line with restrict logged no warning naming it:\n%s", logs.String())
	}
}
