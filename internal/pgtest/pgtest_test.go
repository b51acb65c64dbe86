package pgtest

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"
)

func TestMain(m *testing.M) { Main(m) }

func TestEachTestGetsItsOwnEmptyDatabase(t *testing.T) {
	ctx := context.Background()
	a, b := NewDatabase(t), NewDatabase(t)
	if a == b {
		t.Fatalf("two tests got the same database %s", a)
	}
	conn, err := pgx.Connect(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "CREATE TABLE x (n int); INSERT INTO x VALUES (1)"); err != nil {
		t.Fatal(err)
	}
	var version string
	if err := conn.QueryRow(ctx, "SHOW server_version").Scan(&version); err != nil || version[:3] != "15." {
		t.Errorf("server version %q (%v), want 15.x", version, err)
	}
	other, err := pgx.Connect(ctx, b)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close(ctx)
	var n int
	if err := other.QueryRow(ctx, "SELECT count(*) FROM pg_tables WHERE tablename = 'x'").Scan(&n); err != nil || n != 0 {
		t.Errorf("the second database sees the first's table (%d, %v)", n, err)
	}
}

// TestTheServerHoldsNoTCPPort: PostgreSQL listens on its unix socket
// alone, so no port of its can be taken by another program between a
// Kill and a Restart (or between choosing a port and binding it, as the
// README's first run found), and two servers never meet.
func TestTheServerHoldsNoTCPPort(t *testing.T) {
	ctx := context.Background()
	s := Own(t)
	if err := s.Kill(); err != nil {
		t.Fatal(err)
	}
	if err := s.Restart(); err != nil {
		t.Fatal(err)
	}
	url, err := s.CreateDatabase(ctx)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var addrs string
	if err := conn.QueryRow(ctx, "SHOW listen_addresses").Scan(&addrs); err != nil || addrs != "" {
		t.Errorf("listen_addresses = %q (%v), want none", addrs, err)
	}
	var client *string
	if err := conn.QueryRow(ctx, "SELECT host(inet_client_addr())").Scan(&client); err != nil || client != nil {
		t.Errorf("connected from %v (%v), want the unix socket (no client address)", client, err)
	}
}
