package postgres_test

import "time"

var timeZero = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
