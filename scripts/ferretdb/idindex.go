package main

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"path/filepath"
	"time"

	_ "modernc.org/sqlite" // the SQLite driver FerretDB itself uses
)

// idIndexSuffix ends the name of the index indexIDs adds to a collection's table.
const idIndexSuffix = "_hc_id"

// FerretDB 1.24's SQLite backend creates each collection's _id index on the
// expression `_ferretdb_sjson->"_id"`, but filters by `_ferretdb_sjson->'$._id'`;
// SQLite matches index expressions literally, so every lookup by _id scans the
// whole table. indexIDs adds an index on the expression the queries use, for
// every collection table of every database in dir. It only adds indexes:
// query results are unchanged.
func indexIDs(ctx context.Context, dir string, logger *slog.Logger) {
	files, err := filepath.Glob(filepath.Join(dir, "*.sqlite"))
	if err != nil {
		return
	}
	for _, file := range files {
		if err := indexDatabase(ctx, file); err != nil {
			logger.Debug("cannot add _id indexes", "file", file, "error", err)
		}
	}
}

func indexDatabase(ctx context.Context, file string) error {
	db, err := sql.Open("sqlite", "file:"+file+"?mode=rw&_pragma=busy_timeout(1000)")
	if err != nil {
		return err
	}
	defer db.Close()

	rows, err := db.QueryContext(ctx, `SELECT c.table_name FROM _ferretdb_collections c
		WHERE NOT EXISTS (SELECT 1 FROM sqlite_master m WHERE m.type = 'index' AND m.name = c.table_name || '`+idIndexSuffix+`')`)
	if err != nil {
		return err
	}
	var tables []string
	for rows.Next() {
		var table string
		if err := rows.Scan(&table); err != nil {
			rows.Close()
			return err
		}
		tables = append(tables, table)
	}
	rows.Close()

	for _, table := range tables {
		q := fmt.Sprintf(`CREATE INDEX IF NOT EXISTS %q ON %q (_ferretdb_sjson->'$._id')`, table+idIndexSuffix, table)
		if _, err := db.ExecContext(ctx, q); err != nil {
			return err
		}
	}
	return nil
}

// keepIndexingIDs runs indexIDs every interval until ctx ends.
func keepIndexingIDs(ctx context.Context, dir string, interval time.Duration, logger *slog.Logger) {
	ticker := time.NewTicker(interval)
	defer ticker.Stop()
	for {
		indexIDs(ctx, dir, logger)
		select {
		case <-ctx.Done():
			return
		case <-ticker.C:
		}
	}
}
