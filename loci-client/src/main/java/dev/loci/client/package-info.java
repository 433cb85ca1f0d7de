/**
 * One Java API over Loci wherever it runs: {@link dev.loci.client.LociApi} is served by an embedded
 * instance ({@link dev.loci.client.EmbeddedLoci}) and by a remote server ({@link
 * dev.loci.client.LociClient}, over {@code java.net.http}), with the same records and the same
 * exceptions, so an application moves from one to the other without code changes. {@link
 * dev.loci.client.Conversations} keeps chat transcripts as versioned traces for the framework
 * adapters.
 */
package dev.loci.client;
