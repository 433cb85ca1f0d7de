/**
 * The server's machinery, private to this module: request checks (client address, credentials, rate
 * limits), problem responses, metrics, and the route sets of API v1.
 */
package dev.loci.server.internal;
