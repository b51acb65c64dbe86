package postgres

import "context"

// DamageFinished makes finished game id's row in s unreadable, as a hand
// edit could: its name NULL (the column's NOT NULL dropped first).
func DamageFinished(s *Store, id uint64) error {
	ctx := context.Background()
	if _, err := s.pool.Exec(ctx, `ALTER TABLE finished ALTER COLUMN name DROP NOT NULL`); err != nil {
		return err
	}
	_, err := s.pool.Exec(ctx, `UPDATE finished SET name = NULL WHERE id = $1`, int64(id))
	return err
}
