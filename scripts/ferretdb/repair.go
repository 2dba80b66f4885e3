package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// FerretDB 1.24's SQLite backend changes its catalogue in steps that are not
// one transaction, so a kill -9 between two steps leaves a state it cannot
// handle after a restart:
//
//   - a database file created (the pool opens it) but its catalogue table
//     `_ferretdb_collections` never created: FerretDB refuses to start
//     ("no such table: _ferretdb_collections");
//   - a collection's table created but not yet listed in the catalogue: creating
//     that collection fails forever ("table ... already exists");
//   - an index created but not yet recorded in the collection's settings:
//     creating that index fails forever ("index ... already exists").
//
// repairDatabases, run before FerretDB opens the directory, completes or undoes
// each: it creates the missing catalogue of a database that has no tables, drops
// unlisted tables that hold no documents and unrecorded indexes (FerretDB creates
// them again on request), and moves aside, with a warning, a file that has
// tables but no catalogue (FerretDB never writes one), so the server starts.
// Listed collections and their documents are never touched.

// catalogueTable is FerretDB's list of a database's collections.
const catalogueTable = "_ferretdb_collections"

// catalogueDDL is the statement FerretDB 1.24 creates the catalogue with (metadata/registry.go).
const catalogueDDL = `CREATE TABLE "_ferretdb_collections" (` +
	`name TEXT NOT NULL UNIQUE CHECK(name != ''), ` +
	`table_name TEXT NOT NULL UNIQUE CHECK(table_name != ''), ` +
	`settings TEXT NOT NULL CHECK(settings != '')) STRICT`

// repairDatabases repairs every *.sqlite database in dir (see above).
func repairDatabases(ctx context.Context, dir string, logger *slog.Logger) {
	files, err := filepath.Glob(filepath.Join(dir, "*.sqlite"))
	if err != nil {
		return
	}
	for _, file := range files {
		unreadable, err := repairDatabase(ctx, file, logger)
		switch {
		case unreadable:
			aside := fmt.Sprintf("%s.unreadable-%d", file, time.Now().Unix())
			logger.Warn("moving aside a file that is not a FerretDB database", "file", file, "to", aside, "error", err)
			for _, suffix := range []string{"", "-wal", "-shm"} {
				_ = os.Rename(file+suffix, aside+suffix)
			}
		case err != nil:
			logger.Warn("cannot check a database", "file", file, "error", err)
		}
	}
}

// repairDatabase repairs one database file; unreadable is true when it has
// tables but no catalogue, which FerretDB cannot open.
func repairDatabase(ctx context.Context, file string, logger *slog.Logger) (unreadable bool, err error) {
	db, err := sql.Open("sqlite", "file:"+file+"?_pragma=busy_timeout(10000)&_pragma=journal_mode(wal)")
	if err != nil {
		return false, err
	}
	defer db.Close()
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return false, err
	}
	defer tx.Rollback()

	tables, err := names(ctx, tx, `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`)
	if err != nil {
		return false, err
	}
	if !contains(tables, catalogueTable) {
		if len(tables) > 0 {
			return true, fmt.Errorf("tables without %s", catalogueTable)
		}
		logger.Warn("creating the catalogue of a database left uninitialised", "file", file)
		if _, err := tx.ExecContext(ctx, catalogueDDL); err != nil {
			return false, err
		}
		return false, tx.Commit()
	}

	listed, err := catalogue(ctx, tx)
	if err != nil {
		return false, err
	}
	if err := dropUnlistedTables(ctx, tx, tables, listed, file, logger); err != nil {
		return false, err
	}
	if err := dropUnrecordedIndexes(ctx, tx, listed, file, logger); err != nil {
		return false, err
	}
	return false, tx.Commit()
}

// catalogue maps each listed collection's table name to its recorded index names.
func catalogue(ctx context.Context, tx *sql.Tx) (map[string][]string, error) {
	rows, err := tx.QueryContext(ctx, `SELECT table_name, settings FROM "_ferretdb_collections"`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	listed := map[string][]string{}
	for rows.Next() {
		var table, settings string
		if err := rows.Scan(&table, &settings); err != nil {
			return nil, err
		}
		var s struct {
			Indexes []struct {
				Name string `json:"name"`
			} `json:"indexes"`
		}
		if err := json.Unmarshal([]byte(settings), &s); err != nil {
			return nil, fmt.Errorf("settings of %s: %w", table, err)
		}
		listed[table] = nil
		for _, index := range s.Indexes {
			listed[table] = append(listed[table], index.Name)
		}
	}
	return listed, rows.Err()
}

func dropUnlistedTables(ctx context.Context, tx *sql.Tx, tables []string, listed map[string][]string, file string, logger *slog.Logger) error {
	for _, table := range tables {
		if _, ok := listed[table]; ok || table == catalogueTable {
			continue
		}
		var documents int
		if err := tx.QueryRowContext(ctx, fmt.Sprintf(`SELECT count(*) FROM %q`, table)).Scan(&documents); err != nil {
			return err
		}
		if documents > 0 {
			logger.Warn("leaving an unlisted collection table that holds documents", "file", file, "table", table)
			continue
		}
		logger.Warn("dropping a collection table left unlisted", "file", file, "table", table)
		if _, err := tx.ExecContext(ctx, fmt.Sprintf(`DROP TABLE %q`, table)); err != nil {
			return err
		}
	}
	return nil
}

func dropUnrecordedIndexes(ctx context.Context, tx *sql.Tx, listed map[string][]string, file string, logger *slog.Logger) error {
	for table, recorded := range listed {
		indexes, err := names(ctx, tx, `SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL`, table)
		if err != nil {
			return err
		}
		for _, index := range indexes {
			name, ours := strings.CutPrefix(index, table+"_")
			if !ours || index == table+idIndexSuffix || contains(recorded, name) {
				continue
			}
			logger.Warn("dropping an index left unrecorded", "file", file, "index", index)
			if _, err := tx.ExecContext(ctx, fmt.Sprintf(`DROP INDEX %q`, index)); err != nil {
				return err
			}
		}
	}
	return nil
}

func names(ctx context.Context, tx *sql.Tx, query string, args ...any) ([]string, error) {
	rows, err := tx.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var res []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			return nil, err
		}
		res = append(res, name)
	}
	return res, rows.Err()
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
