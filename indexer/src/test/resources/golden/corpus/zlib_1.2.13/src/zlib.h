/* zlib.h -- interface of the zlib compression library */
int deflate(z_streamp strm, int flush);
int inflate(z_streamp strm, int flush);
