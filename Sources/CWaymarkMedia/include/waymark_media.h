#ifndef WAYMARK_MEDIA_H
#define WAYMARK_MEDIA_H
#ifdef __cplusplus
extern "C" {
#endif
/* Placeholder; the real API follows. */
int wm_version(void);
#ifdef __cplusplus
}
#endif
#endif
