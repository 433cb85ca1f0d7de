/** The Loci HTTP server. */
package dev.loci.server;
