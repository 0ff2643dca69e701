/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* placeholder */
int main(void)
{
	return 0;
}
