package main

import (
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"log/slog"
	"strings"
	"time"

	"github.com/FerretDB/FerretDB/ferretdb"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// FerretDB 1.24's PostgreSQL backend pushes an equality filter down as
// `_jsonb->$1 @> $2` (`_jsonb#>$1 @> $2` for a dotted path), but the indexes it
// creates for MongoDB indexes are btree indexes on `(_jsonb->'field')`, which
// cannot serve `@>`: every pushed-down find scans the whole table.
// indexJSONPaths adds, for every field other than _id that a MongoDB index of a
// collection names, a GIN jsonb_path_ops index on the expression the queries
// use. (An _id filter is pushed down as `_jsonb->'_id' = ...` instead, which
// FerretDB's own unique btree index serves: patches/002-postgresql-pushdown.diff.)
// PostgreSQL plans FerretDB's prepared statements with their parameters
// substituted (custom plans), so the expression matches and the planner uses
// the index. For the key of a single-field MongoDB index it also adds a btree
// index on the least number under the key (ferretdb.MinNumberIndexExpression),
// which serves the patched backend's upper bounds on dates (`deadline <= now`)
// as MongoDB's index does. Both are partial, so a document without the field
// costs no index entry on a write (as MongoDB's sparse index): the GIN index
// `WHERE (<expression>) IS NOT NULL`, which PostgreSQL proves from the pushed-down
// `@>` (a strict operator on the same expression); the btree index
// `WHERE _jsonb ? '<first part of the key>'` (ferretdb.MinNumberIndexPredicate),
// which each pushed-down upper bound also states (patches/006-sparse-indexes.diff):
// unlike `hc_min_number(...) IS NOT NULL` it costs no function call on every
// write (test/scripts/ferretdb/postgresql.test.ts proves both are used). It only
// adds (and removes its own) indexes: query results are unchanged.

// ginIndexInfix and minIndexInfix mark the indexes indexJSONPaths creates:
// `<table>_hcgin_<hash>` and `<table>_hcmin_<hash>`.
const (
	ginIndexInfix = "_hcgin_"
	minIndexInfix = "_hcmin_"
)

// keepIndexingJSONPaths runs indexJSONPaths every interval until ctx ends.
func keepIndexingJSONPaths(ctx context.Context, url string, interval time.Duration, logger *slog.Logger) {
	ticker := time.NewTicker(interval)
	defer ticker.Stop()
	for {
		if err := indexJSONPaths(ctx, url, logger); err != nil && ctx.Err() == nil {
			logger.Debug("cannot add jsonb_path_ops indexes", "error", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-ticker.C:
		}
	}
}

// ginIndex is one wanted index of indexJSONPaths: `method` is `gin` or `btree`.
type ginIndex struct {
	schema, table, name, method, expression, predicate string
}

func indexJSONPaths(ctx context.Context, url string, logger *slog.Logger) error {
	conn, err := connect(ctx, url)
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())

	wanted, err := wantedGinIndexes(ctx, conn)
	if err != nil {
		return err
	}
	existing, err := existingGinIndexes(ctx, conn)
	if err != nil {
		return err
	}
	for key, index := range wanted {
		if valid, ok := existing[key]; ok && valid {
			continue
		} else if ok {
			// A concurrent build that was cut off leaves an invalid index: build it again.
			if _, err := conn.Exec(ctx, fmt.Sprintf(`DROP INDEX CONCURRENTLY IF EXISTS %s`, pgx.Identifier{index.schema, index.name}.Sanitize())); err != nil {
				return err
			}
		}
		operatorClass := ""
		if index.method == "gin" {
			operatorClass = " jsonb_path_ops"
		}
		q := fmt.Sprintf(`CREATE INDEX CONCURRENTLY IF NOT EXISTS %s ON %s USING %s ((%s)%s) WHERE %s`,
			pgx.Identifier{index.name}.Sanitize(), pgx.Identifier{index.schema, index.table}.Sanitize(), index.method, index.expression, operatorClass, index.predicate)
		if _, err := conn.Exec(ctx, q); err != nil {
			return err
		}
		logger.Debug("added an index", "schema", index.schema, "index", index.name)
	}
	for key := range existing {
		if _, ok := wanted[key]; !ok {
			schema, name, _ := strings.Cut(key, ".")
			if _, err := conn.Exec(ctx, fmt.Sprintf(`DROP INDEX CONCURRENTLY IF EXISTS %s`, pgx.Identifier{schema, name}.Sanitize())); err != nil {
				return err
			}
		}
	}
	return nil
}

// wantedGinIndexes reads every database's FerretDB catalogue and returns, by
// "schema.name", one index per field other than _id that a MongoDB index names.
func wantedGinIndexes(ctx context.Context, conn *pgx.Conn) (map[string]ginIndex, error) {
	schemas, err := firstColumn(ctx, conn, `SELECT table_schema FROM information_schema.tables WHERE table_name = '_ferretdb_database_metadata'`)
	if err != nil {
		return nil, err
	}
	wanted := map[string]ginIndex{}
	for _, schema := range schemas {
		q := fmt.Sprintf(`SELECT _jsonb->>'table', coalesce(_jsonb->'indexes', '[]') FROM %s`, pgx.Identifier{schema, "_ferretdb_database_metadata"}.Sanitize())
		rows, err := conn.Query(ctx, q)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var table string
			var indexes []struct {
				Key map[string]json.RawMessage `json:"key"`
			}
			if err := rows.Scan(&table, &indexes); err != nil {
				rows.Close()
				return nil, err
			}
			for _, index := range indexes {
				for field := range index.Key {
					if field == "_id" || strings.HasPrefix(field, "$") {
						continue
					}
					expression := pathExpression(field)
					predicate := "(" + expression + ") IS NOT NULL"
					gin := ginIndex{schema: schema, table: table, name: indexName(table, ginIndexInfix, field, predicate), method: "gin", expression: expression, predicate: predicate}
					wanted[schema+"."+gin.name] = gin
					if expression := ferretdb.MinNumberIndexExpression(field); len(index.Key) == 1 && expression != "" {
						predicate := ferretdb.MinNumberIndexPredicate(field)
						min := ginIndex{schema: schema, table: table, name: indexName(table, minIndexInfix, field, predicate), method: "btree", expression: expression, predicate: predicate}
						wanted[schema+"."+min.name] = min
					}
				}
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	return wanted, nil
}

// existingGinIndexes returns the indexes indexJSONPaths created (both kinds), by "schema.name", and whether each is valid.
func existingGinIndexes(ctx context.Context, conn *pgx.Conn) (map[string]bool, error) {
	rows, err := conn.Query(ctx, `SELECT n.nspname || '.' || c.relname, i.indisvalid FROM pg_index i
		JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_namespace n ON n.oid = c.relnamespace
		WHERE strpos(c.relname, $1) > 0 OR strpos(c.relname, $2) > 0`, ginIndexInfix, minIndexInfix)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	existing := map[string]bool{}
	for rows.Next() {
		var key string
		var valid bool
		if err := rows.Scan(&key, &valid); err != nil {
			return nil, err
		}
		existing[key] = valid
	}
	return existing, rows.Err()
}

// pathExpression is the SQL FerretDB filters a field by: `_jsonb->'f'`, or `_jsonb#>'{a,b}'` for a dotted path.
func pathExpression(field string) string {
	quote := func(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
	parts := strings.Split(field, ".")
	if len(parts) == 1 {
		return "_jsonb->" + quote(field)
	}
	for i, part := range parts {
		parts[i] = `"` + strings.ReplaceAll(strings.ReplaceAll(part, `\`, `\\`), `"`, `\"`) + `"`
	}
	return "_jsonb#>" + quote("{"+strings.Join(parts, ",")+"}")
}

// indexName names an index (infix: its kind) of field on table, within PostgreSQL's 63-byte limit.
// The hash covers the partial index's predicate, so an index of another form (one
// created before, not partial or on another predicate) has another name: not wanted, and dropped.
func indexName(table, infix, field, predicate string) string {
	h := fnv.New32a()
	h.Write([]byte(table + "\x00" + field + "\x00" + predicate))
	prefix := table
	if len(prefix) > 40 {
		prefix = prefix[:40]
	}
	return fmt.Sprintf("%s%s%08x", prefix, infix, h.Sum32())
}

// firstColumn returns the first column of every row of query.
func firstColumn(ctx context.Context, conn *pgx.Conn, query string) ([]string, error) {
	rows, err := conn.Query(ctx, query)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowTo[string])
}

// execOnce runs one statement on a connection of its own.
func execOnce(ctx context.Context, url, sql string) error {
	conn, err := connect(ctx, url)
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())
	_, err = conn.Exec(ctx, sql)
	return err
}

// connect opens one connection to url, which may hold FerretDB's pool settings (`pool_max_conns`, ...).
func connect(ctx context.Context, url string) (*pgx.Conn, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, err
	}
	return pgx.ConnectConfig(ctx, cfg.ConnConfig)
}
