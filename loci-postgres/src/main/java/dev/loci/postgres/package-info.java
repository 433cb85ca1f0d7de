/**
 * The PostgreSQL journal: Loci's source of truth in a database shared by several servers, each of
 * which keeps its own projections (snapshots, indexes) in its own data directory.
 */
package dev.loci.postgres;
