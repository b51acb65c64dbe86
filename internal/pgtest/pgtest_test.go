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
