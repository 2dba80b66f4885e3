package main

import (
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"log/slog"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
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
// the index. It only adds (and removes its own) indexes: query results are
// unchanged.

// ginIndexInfix marks the indexes indexJSONPaths creates: `<table>_hcgin_<hash>`.
const ginIndexInfix = "_hcgin_"

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

// ginIndex is one wanted or existing index of indexJSONPaths.
type ginIndex struct {
	schema, table, name, expression string
}

func indexJSONPaths(ctx context.Context, url string, logger *slog.Logger) error {
	conn, err := pgx.Connect(ctx, url)
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
		q := fmt.Sprintf(`CREATE INDEX CONCURRENTLY IF NOT EXISTS %s ON %s USING gin ((%s) jsonb_path_ops)`,
			pgx.Identifier{index.name}.Sanitize(), pgx.Identifier{index.schema, index.table}.Sanitize(), index.expression)
		if _, err := conn.Exec(ctx, q); err != nil {
			return err
		}
		logger.Debug("added a jsonb_path_ops index", "schema", index.schema, "index", index.name)
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
			fields := map[string]bool{}
			for _, index := range indexes {
				for field := range index.Key {
					if field != "_id" && !strings.HasPrefix(field, "$") {
						fields[field] = true
					}
				}
			}
			for field := range fields {
				index := ginIndex{schema: schema, table: table, name: ginIndexName(table, field), expression: pathExpression(field)}
				wanted[schema+"."+index.name] = index
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	return wanted, nil
}

// existingGinIndexes returns the indexes indexJSONPaths created, by "schema.name", and whether each is valid.
func existingGinIndexes(ctx context.Context, conn *pgx.Conn) (map[string]bool, error) {
	rows, err := conn.Query(ctx, `SELECT n.nspname || '.' || c.relname, i.indisvalid FROM pg_index i
		JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_namespace n ON n.oid = c.relnamespace
		WHERE strpos(c.relname, $1) > 0`, ginIndexInfix)
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

// ginIndexName names the index of field on table, within PostgreSQL's 63-byte limit.
func ginIndexName(table, field string) string {
	h := fnv.New32a()
	h.Write([]byte(table + "\x00" + field))
	prefix := table
	if len(prefix) > 40 {
		prefix = prefix[:40]
	}
	return fmt.Sprintf("%s%s%08x", prefix, ginIndexInfix, h.Sum32())
}

// firstColumn returns the first column of every row of query.
func firstColumn(ctx context.Context, conn *pgx.Conn, query string) ([]string, error) {
	rows, err := conn.Query(ctx, query)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowTo[string])
}
