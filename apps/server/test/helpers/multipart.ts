/**
 * Builds a multipart/form-data payload for app.inject (fields and files as raw bytes). A text
 * field may carry its own Content-Type (`type`), as `FormData` with a typed Blob and no file name.
 */
export function multipart(
  parts: {
    name: string;
    value?: string;
    type?: string;
    file?: { filename: string; type: string; bytes: Buffer };
  }[],
) {
  const boundary = `----evdra${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    chunks.push(Buffer.from(`--${boundary}\r\n`));
    if (p.file) {
      chunks.push(
        Buffer.from(
          `Content-Disposition: form-data; name="${p.name}"; filename="${p.file.filename}"\r\nContent-Type: ${p.file.type}\r\n\r\n`,
        ),
      );
      chunks.push(p.file.bytes, Buffer.from('\r\n'));
    } else {
      const type = p.type ? `Content-Type: ${p.type}\r\n` : '';
      chunks.push(
        Buffer.from(`Content-Disposition: form-data; name="${p.name}"\r\n${type}\r\n${p.value ?? ''}\r\n`),
      );
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}
