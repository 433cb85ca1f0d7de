/**
 * Loci as Spring AI's memory: {@link dev.loci.spring.ai.LociChatMemoryRepository} keeps each
 * conversation as a chain of versioned traces, {@link dev.loci.spring.ai.LociDocumentRetriever}
 * answers retrieval-augmented generation with Loci's recall and its evidence paths, and {@link
 * dev.loci.spring.ai.LociAutoConfiguration} wires both from {@code loci.*} properties, over an
 * embedded instance ({@code loci.data-dir}) or a server ({@code loci.url}, {@code loci.token}).
 */
package dev.loci.spring.ai;
