/* banned.h — functions benchlog's code must not call (after git's banned.h).
 *
 * Included last by core/util.h, so every project source gets it. Each banned
 * name expands to an undeclared identifier and the build fails at the call.
 * Use instead: snprintf/bl_buf (sprintf, strcpy, strcat), bl_parse_* from
 * core/util.h (atoi, atol, atof), explicit scanners (strtok).
 */
#ifndef BL_BANNED_H
#define BL_BANNED_H

#define BANNED(func) sorry_##func##_is_a_banned_function

#undef strcpy
#define strcpy(x, y) BANNED(strcpy)
#undef strcat
#define strcat(x, y) BANNED(strcat)
#undef sprintf
#define sprintf(...) BANNED(sprintf)
#undef vsprintf
#define vsprintf(...) BANNED(vsprintf)
#undef strtok
#define strtok(x, y) BANNED(strtok)
#undef atoi
#define atoi(x) BANNED(atoi)
#undef atol
#define atol(x) BANNED(atol)
#undef atof
#define atof(x) BANNED(atof)
#undef gets
#define gets(x) BANNED(gets)

#endif
